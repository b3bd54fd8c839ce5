import Testing

@testable import PushbuttonStore

/// A store location is printed (start-up banner, connection errors) without its password, wherever libpq
/// would take one from.
struct StoreLocationTests {
    @Test func passwordsAreRedactedInUserInfoAndQueryParameters() {
        #expect(StoreLocation.redacted("postgres://app:s3cret@db:5432/push") == "postgres://app:redacted@db:5432/push")
        let query = StoreLocation.redacted("postgres://app@db/push?password=s3cret&sslmode=require")
        #expect(!query.contains("s3cret") && query.contains("password=redacted") && query.contains("sslmode=require"))
        #expect(!StoreLocation.redacted("postgres://db/push?passfile=/etc/pgpass").contains("/etc/pgpass"))
    }

    @Test func locationsWithoutAPasswordAreUnchanged() {
        #expect(
            StoreLocation.redacted("sqlite:/var/lib/pushbutton/gateway.sqlite")
                == "sqlite:/var/lib/pushbutton/gateway.sqlite")
        #expect(
            StoreLocation.redacted("postgres://app@db/push?sslmode=require") == "postgres://app@db/push?sslmode=require"
        )
    }
}
