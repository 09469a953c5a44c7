import AccountDatabase
import BackendEmulator
import Foundation
import Testing

/// An `authData` id is stored and echoed in answers: over 255 characters (the OpenID
/// Connect limit for a subject) it is refused before anything is stored.
@Suite("Emulator: NCMB authData ids are bounded", .timeLimit(.minutes(1)))
struct NCMBAuthDataBoundTests {
  @Test(arguments: ["anonymous", "apple"])
  func longIDRefused(provider: String) async throws {
    let store = try makeStore()
    let ncmb = NCMBHandler(store: store)
    let requests = NCMBRequests()
    func signIn(_ id: String) async -> HTTPResponseSummary {
      let answer = await ncmb.handle(
        requests.request(
          .post, "/2013-09-01/users",
          body: ["authData": [provider: ["id": id, "access_token": "code", "client_id": "app"]]]))
      return HTTPResponseSummary(status: answer.status, code: answer.ncmbCode)
    }
    let refused = await signIn(String(repeating: "i", count: 256))
    #expect(refused == HTTPResponseSummary(status: 400, code: "E400009"))
    #expect(try store.userCount() == 0)
    let accepted = await signIn(String(repeating: "i", count: 255))
    #expect(accepted.status == 201)
  }
}

/// The status and NCMB code of an answer.
struct HTTPResponseSummary: Equatable {
  var status: Int
  var code: String?
}
