//! Several threads writing at once (a server's requests), each retrying writes already
//! sent (by itself or another thread, as a client does after a lost answer): every
//! game is kept once, and the scoreboard counts each once.

use std::sync::Mutex;
use std::thread;

use rstest_reuse::apply;

use super::*;

#[apply(stores)]
fn writers_at_once_retrying_each_others_writes_keep_every_game_once(#[case] store: Fresh) {
    let (threads, games_each) = (4, 15);
    let sent: Mutex<Vec<Write>> = Mutex::new(Vec::new());
    let played: Vec<Vec<(NewGame, Vec<Write>)>> = (0..threads)
        .map(|t| {
            let mut random = Seeded(100 + t as u64);
            (0..games_each)
                .map(|g| random_game(&mut random, (t * games_each + g + 1) as u128))
                .collect()
        })
        .collect();

    thread::scope(|scope| {
        for (t, games) in played.iter().enumerate() {
            let (store, sent) = (&*store, &sent);
            scope.spawn(move || {
                let mut random = Seeded(900 + t as u64);
                for write in games.iter().flat_map(|(_, writes)| writes) {
                    store
                        .write(std::slice::from_ref(write))
                        .expect("a new write");
                    sent.lock().unwrap().push(write.clone());
                    let again = {
                        let sent = sent.lock().unwrap();
                        random.pick(&sent)
                    };
                    store
                        .write(&[again])
                        .expect("a write sent before is a no-op");
                }
            });
        }
    });

    for (game, writes) in played.iter().flatten() {
        let kept = store.game(&game.id).unwrap().expect("every game kept");
        let steps = writes
            .iter()
            .filter(|write| matches!(write, Write::Step { .. }))
            .count();
        assert_eq!(kept.game, *game);
        assert_eq!(kept.steps.len(), steps, "game {}", game.id);
    }
    assert_eq!(
        shown(&*store),
        recounted(&*store, (threads * games_each) as u128)
    );
}
