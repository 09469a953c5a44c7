import Foundation
import Testing

/// The repository ships `firestore.rules` with the owner-only rule on `users/{userId}`.
@Suite(.timeLimit(.minutes(1)))
struct FirestoreRulesFileTests {
  @Test func everyVerbIsLimitedToTheOwner() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let text = try String(
      contentsOf: root.appendingPathComponent("firestore.rules"), encoding: .utf8)
    let compact = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(compact.contains("match /users/{userId} {"))
    // One allow statement for the four verbs, under the owner condition, and no other.
    let allows = compact.components(separatedBy: "allow ").dropFirst()
    #expect(allows.count == 1)
    let rule = try #require(allows.first)
    let verbs = rule.prefix { $0 != ":" }.split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    #expect(Set(verbs) == ["read", "create", "update", "delete"])
    #expect(rule.contains(": if request.auth != null && request.auth.uid == userId;"))
    #expect(!compact.contains("allow write"))
  }
}
