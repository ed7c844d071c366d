//! The throwaway server: each test's database is new, empty and its own.

#[test]
fn each_new_database_is_empty_and_its_own() {
    let (Some(first), Some(second)) = (
        tictactoe_test_postgres::database_or_skip("each_new_database_is_empty_and_its_own"),
        tictactoe_test_postgres::database_or_skip("each_new_database_is_empty_and_its_own"),
    ) else {
        return;
    };

    let mut client = postgres::Client::connect(&first, postgres::NoTls).unwrap();
    client
        .batch_execute("CREATE TABLE mine (id INTEGER)")
        .unwrap();
    let tables = |url: &str| -> i64 {
        postgres::Client::connect(url, postgres::NoTls)
            .unwrap()
            .query_one(
                "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'",
                &[],
            )
            .unwrap()
            .get(0)
    };

    assert_ne!(first, second);
    assert_eq!(tables(&first), 1);
    assert_eq!(tables(&second), 0);
}
