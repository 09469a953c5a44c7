import AccountDatabase
import BackendEmulator
import Foundation
import Testing
import UserBackendKit

/// User names and email addresses stay apart on every backend: a new user name with `@`
/// is refused before any request (on NCMB it would take the address's `userName`), and
/// NCMB reports an email only when the account has one (`mailAddress` `null` is none,
/// whatever the sign-in sent).
@Suite("User names shaped like email addresses", .timeLimit(.minutes(2)))
struct EmailShapedUsernameTests {
  /// The error of a new user name with `@` on `name`: `invalidInput(username)`, or
  /// `unsupported` on Firebase (no user names at all).
  static func expectRefused(_ name: String, _ error: UserBackendError) {
    if name == "firebase" {
      #expect(error.code == .unsupported(capability: .usernamePassword))
    } else {
      guard case .invalidInput(let field, _) = error.code else {
        Issue.record("\(name): \(error)")
        return
      }
      #expect(field == "username")
    }
  }

  @Test("sign-up refuses it before any account exists", arguments: ["fake", "firebase", "ncmb"])
  func signUp(backend name: String) async throws {
    let rig = try EmulatorRig(.inProcess)
    let backend = try makeBackend(name, rig, InMemorySessionStore())
    for username in ["boss@company.example", "Boss@Company.Example", " a@b ", "@", "x@"] {
      do {
        _ = try await backend.signUp(.username(username, password: "attacker-pw-1"))
        Issue.record("\(name) signed up \(username)")
      } catch {
        Self.expectRefused(name, error)
      }
    }
    #expect(try rig.store.userCount() == 0)
  }

  @Test("linking a password refuses it", arguments: ["fake", "firebase", "ncmb"])
  func link(backend name: String) async throws {
    let rig = try EmulatorRig(.inProcess)
    let backend = try makeBackend(name, rig, InMemorySessionStore())
    let guest = try await backend.signInAnonymously()
    do {
      _ = try await backend.linkPassword(.username("boss@company.example", password: "pw-123456"))
      Issue.record("\(name) linked an email-shaped user name")
    } catch {
      Self.expectRefused(name, error)
    }
    // NCMB gives a guest a random user name; the refused one is never stored.
    #expect(try rig.store.user(id: guest.user.id)?.username != "boss@company.example")
  }

  @Test("a user name without @ is still accepted", arguments: ["fake", "ncmb"])
  func plainUsername(backend name: String) async throws {
    let rig = try EmulatorRig(.inProcess)
    let backend = try makeBackend(name, rig, InMemorySessionStore())
    let session = try await backend.signUp(.username("boss.company", password: "pw-123456"))
    #expect(session.user.username == "boss.company")
    #expect(session.user.email == nil)
  }

  /// An account another NCMB client created with an address as its user name: signing in
  /// to it with that address works (the `userName` namespace is shared), but the account
  /// has no mail address, and neither sign-in nor reload invents one.
  @Test("NCMB: mailAddress null is no email, also after reload")
  func ncmbNullMailAddress() async throws {
    let rig = try EmulatorRig(.inProcess)
    _ = try rig.store.createUser(
      NewUser(username: "boss@company.example", password: "attacker-pw-1"))
    let backend = try rig.ncmb()
    let signedIn = try await backend.signIn(
      .email("boss@company.example", password: "attacker-pw-1"))
    #expect(signedIn.user.username == "boss@company.example")
    #expect(signedIn.user.email == nil)
    #expect(try await backend.reload().email == nil)
    #expect(try await backend.currentUser()?.email == nil)
    let byName = try await backend.signIn(
      .username("boss@company.example", password: "attacker-pw-1"))
    #expect(byName.user.email == nil)
  }

  @Test("NCMB: an email sign-up still reports its address")
  func ncmbEmailAccount() async throws {
    let rig = try EmulatorRig(.inProcess)
    let backend = try rig.ncmb()
    let session = try await backend.signUp(.email("owner@company.example", password: "pw-123456"))
    #expect(session.user.email == "owner@company.example")
    #expect(try await backend.reload().email == "owner@company.example")
    let again = try await backend.signIn(.email("owner@company.example", password: "pw-123456"))
    #expect(again.user.email == "owner@company.example")
  }
}
