import Foundation
import Testing

/// The `document` of a `--json` run that succeeded (`nil` for `{"document":null}`).
private func document(_ result: BaasResult) throws -> [String: Any]? {
  #expect(result.status == 0, "\(result.allOutput)")
  let json = try result.json()
  #expect(Set(json.keys) == ["document"], "\(result.standardOutput)")
  if json["document"] is NSNull { return nil }
  return try #require(json["document"] as? [String: Any], "\(result.standardOutput)")
}

/// End to end through the fake's document store: these need the implementation of issue 13
/// (the fake's documents).
@Suite("baas doc … and signin --ensure-doc, end to end (fake)", .timeLimit(.minutes(10)))
struct DocCommandEndToEndTests {
  @Test("set with every kind of value, get as JSON and as text, delete")
  func roundTrip() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let signUp = try await baas.run(
      ["signup", "--email", account.email], environment: ["BAAS_PASSWORD": account.password])
    try #require(signUp.status == 0, "\(signUp.allOutput)")
    #expect(try document(try await baas.run(["doc", "get", "--json"])) == nil)
    #expect(try await baas.run(["doc", "get"]).standardOutput == "No document.\n")

    let set = try await baas.run([
      "doc", "set", "name=Ada", "age=36", "ratio=2.0", "ok=true", "none=null", "empty=",
      "code=\"42\"", "tags=[\"a\",1]", "nested={\"k\":{\"n\":1.5}}", "seen=@now",
      "born=@1815-12-10T00:00:00Z", "evil=\u{1B}]0;x\u{07}", "--json",
    ])
    let written = try #require(try document(set))
    let fields = try #require(written["fields"] as? [String: Any])
    #expect(fields["name"] as? String == "Ada")
    #expect((fields["age"] as? NSNumber)?.int64Value == 36)
    #expect(set.standardOutput.contains("\"age\":36,"))
    #expect(set.standardOutput.contains("\"ratio\":2.0,"), "a double keeps its fraction")
    #expect(fields["ok"] as? Bool == true)
    #expect(fields["none"] is NSNull)
    #expect(fields["empty"] as? String == "")
    #expect(fields["code"] as? String == "42")
    #expect((fields["tags"] as? [Any])?.count == 2)
    #expect(set.standardOutput.contains("\"nested\":{\"k\":{\"n\":1.5}}"))
    #expect(fields["born"] as? String == "1815-12-10T00:00:00.000Z")
    let seen = try #require(fields["seen"] as? String, "the server's time")
    #expect(seen.hasSuffix("Z"))
    #expect(fields["evil"] as? String == "\u{1B}]0;x\u{07}")
    #expect(!set.standardOutput.contains("\u{1B}"), "escaped in JSON")
    #expect(written["createTime"] is String || written["createTime"] is NSNull)

    let merged = try #require(
      try document(try await baas.run(["doc", "set", "age=37", "--json"])))
    let mergedFields = try #require(merged["fields"] as? [String: Any])
    #expect((mergedFields["age"] as? NSNumber)?.int64Value == 37)
    #expect(mergedFields["name"] as? String == "Ada", "a merge keeps the other fields")

    let text = try await baas.run(["doc", "get"])
    #expect(text.status == 0)
    let lines = text.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines == lines.sorted(), "sorted by field")
    #expect(lines.contains("age: 37"))
    #expect(lines.contains("ratio: 2.0"))
    #expect(lines.contains("code: \"42\""))
    #expect(lines.contains("empty: \"\""))
    #expect(lines.contains("born: @1815-12-10T00:00:00.000Z"))
    #expect(lines.contains("name: Ada"))
    #expect(!text.standardOutput.contains("\u{1B}"), "terminal-safe")

    let delete = try await baas.run(["doc", "delete", "--json"])
    #expect(try document(delete) == nil)
    #expect(try document(try await baas.run(["doc", "get", "--json"])) == nil)
    let again = try await baas.run(["doc", "delete"])
    #expect(again.status == 0, "deleting a missing document is not an error")
  }

  @Test("signin --ensure-doc creates the document once; a second sign-in keeps it")
  func ensureDocument() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let password = ["BAAS_PASSWORD": account.password]
    _ = try await baas.run(["signup", "--email", account.email], environment: password)
    let first = try await baas.run(
      ["signin", "--email", account.email, "--ensure-doc", "--json"], environment: password)
    #expect(first.status == 0, "\(first.allOutput)")
    let json = try first.json()
    #expect(Set(json.keys) == ["created", "document", "user"])
    #expect(json["created"] as? Bool == true)
    let user = try #require(json["user"] as? [String: Any])
    let fields = try #require((json["document"] as? [String: Any])?["fields"] as? [String: Any])
    #expect(fields["uid"] as? String == user["id"] as? String)
    #expect(fields["email"] as? String == account.email)
    #expect(fields["display_name"] as? String == "anonymous")
    #expect(fields["create_date"] is String)

    _ = try await baas.run(["doc", "set", "display_name=Ada"])
    let second = try await baas.run(
      ["signin", "--email", account.email, "--ensure-doc"], environment: password)
    #expect(second.status == 0, "\(second.allOutput)")
    #expect(second.standardOutput.contains("exists"))
    #expect(second.standardOutput.contains("display_name: Ada"), "left unchanged")

    let guest = try await baas.run(["signin", "--anonymous", "--ensure-doc"])
    #expect(guest.status == 0, "\(guest.allOutput)")
    #expect(guest.standardOutput.contains("Created the user's document"))
    #expect(guest.standardOutput.contains("email: null"))
  }

  @Test(
    "another user's document is permissionDenied (exit 1, with a hint); signed out is notSignedIn")
  func ownerOnly() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let first = uniqueAccount()
    let signUp = try await baas.run(
      ["signup", "--email", first.email, "--json"], environment: ["BAAS_PASSWORD": first.password])
    let firstID = try #require(
      (try signUp.json()["user"] as? [String: Any])?["id"] as? String, "\(signUp.allOutput)")
    #expect(try await baas.run(["doc", "set", "secret=1"]).status == 0)
    let second = uniqueAccount()
    _ = try await baas.run(
      ["signup", "--email", second.email], environment: ["BAAS_PASSWORD": second.password])
    for arguments in [
      ["doc", "get", "--user", firstID], ["doc", "set", "x=1", "--user", firstID],
      ["doc", "delete", "--user", firstID],
    ] {
      let json = try await baas.run(arguments + ["--json"])
      #expect(json.status == 1, "\(arguments): \(json.allOutput)")
      let error = try #require(try json.json()["error"] as? [String: Any])
      #expect(error["code"] as? String == "permissionDenied", "\(arguments)")
      let human = try await baas.run(arguments)
      #expect(human.status == 1)
      #expect(human.standardError.contains("permissionDenied"))
      #expect(human.standardError.contains("hint:"))
    }
    _ = try await baas.run(["signout"])
    _ = try await baas.run(
      ["signin", "--email", first.email], environment: ["BAAS_PASSWORD": first.password])
    let own = try await baas.run(["doc", "get", "--user", firstID])
    #expect(own.standardOutput.contains("secret: 1"), "untouched: \(own.allOutput)")

    _ = try await baas.run(["signout"])
    for arguments in [["doc", "get"], ["doc", "set", "a=1"], ["doc", "delete"]] {
      let result = try await baas.run(arguments + ["--json"])
      #expect(result.status == 1, "\(arguments)")
      let error = try #require(try result.json()["error"] as? [String: Any])
      #expect(error["code"] as? String == "notSignedIn", "\(arguments)")
    }
  }
}
