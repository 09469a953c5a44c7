import Foundation
import Testing
import UserBackendKit

@testable import FirebaseUserBackend

@Suite("The adapter checks the project ID before any request", .timeLimit(.minutes(1)))
struct ProjectIDTests {
  @Test(
    "IDs outside Google's rule are misconfigured(projectID)",
    arguments: [String(repeating: "a", count: 300), "プロジェクト", "Bad ID", "abc", "x-", "9lives"])
  func refused(projectID: String) throws {
    let server = StubTransport(json: "{}")
    let error = try #require(throws: UserBackendError.self) {
      _ = try FirebaseUserBackend(
        configuration: FirebaseConfiguration(apiKey: Fixture.apiKey, projectID: projectID),
        transport: server, sessionStore: InMemorySessionStore())
    }
    guard case .misconfigured(let setting, let reason) = error.code else {
      Issue.record("expected misconfigured, got \(error)")
      return
    }
    #expect(setting == "projectID")
    #expect(!reason.contains(projectID))
    #expect(server.count == 0)
  }

  @Test("demo- and ordinary IDs are accepted", arguments: ["demo-project", "my-app-12345"])
  func accepted(projectID: String) throws {
    _ = try FirebaseUserBackend(
      configuration: FirebaseConfiguration(apiKey: Fixture.apiKey, projectID: projectID),
      transport: StubTransport(json: "{}"), sessionStore: InMemorySessionStore())
  }
}
