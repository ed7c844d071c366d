use serde_json::json;

use crate::domain::Scoreboard;

/// The scoreboard for scripts: `{"players":[{"name":..,"wins":..,"losses":..,"ties":..,"games":..}]}`,
/// ranked as on screen.
pub fn scoreboard_json(scoreboard: &Scoreboard) -> String {
    let players: Vec<_> = scoreboard
        .standings()
        .iter()
        .map(|s| {
            json!({
                "name": s.name.as_str(),
                "wins": s.record.wins,
                "losses": s.record.losses,
                "ties": s.record.ties,
                "games": s.record.games(),
            })
        })
        .collect();
    json!({ "players": players }).to_string()
}
