import AccountDatabase
import BackendEmulator
import BackendHTTP
import FakeUserBackend
import Foundation
import Testing
import UserBackendKit

/// The backends whose user documents take the one field-name rule of
/// ``DocumentValidation``.
enum DocumentBackendKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case fake, firebase, ncmb
  var testDescription: String { rawValue }
}

/// One field-name rule on every backend (``DocumentValidation``): a name that any backend
/// reserves is refused by all of them, before any request, so a document written on one
/// backend can be written on the others.
@Suite("One document field-name rule on every backend", .timeLimit(.minutes(2)))
struct DocumentFieldNameRuleTests {
  /// A write that every backend refuses, and the field its error names.
  static let refused: [(fields: [String: DocumentValue], field: String)] = [
    (["__name__": .integer(4)], "fields.__name__"),  // Firestore's reserved form
    (["__x__": .integer(5)], "fields.__x__"),
    (["__type": .string("Date")], "fields.__type"),  // read by NCMB as a Date's marker
    (["__op": .string("Delete")], "fields.__op"),  // read by NCMB as an operation
    (["__": .integer(1)], "fields.__"),
    (["m": .map(["__type": .string("Date")])], "fields.m.__type"),
    (["m": .map(["__x__": .integer(1)])], "fields.m.__x__"),
    (["a": .array([.map(["__op": .string("Delete")])])], "fields.a[0].__op"),
    // The user object's own members on NCMB, and the NCMB adapter's own names.
    (["objectId": .string("zzz")], "fields.objectId"),
    (["createDate": .string("x")], "fields.createDate"),
    (["updateDate": .string("x")], "fields.updateDate"),
    (["acl": .map([:])], "fields.acl"),
    (["authData": .null], "fields.authData"),
    (["sessionToken": .string("x")], "fields.sessionToken"),
    (["mailAddressConfirm": .bool(true)], "fields.mailAddressConfirm"),
    (["mailAddress": .string("a@example.com")], "fields.mailAddress"),
    (["userName": .string("x")], "fields.userName"),
    (["password": .string("x")], "fields.password"),
    (["_id": .string("x")], "fields._id"),
    (["displayName": .string("x")], "fields.displayName"),
    (["photoURL": .string("x")], "fields.photoURL"),
    (["documentCreateDate": .string("x")], "fields.documentCreateDate"),
    (["documentCreateNonce": .string("x")], "fields.documentCreateNonce"),
  ]

  /// Names every backend stores.
  static let accepted: [String: DocumentValue] = [
    "_x": .integer(1), "x__": .integer(2), "a__b__": .integer(3), "x_": .integer(4),
    "_": .integer(5), "m": .map(["objectId": .string("nested names are free"), "_y": .null]),
  ]

  private struct Subject {
    let rig: EmulatorRig
    let backend: any UserBackend
    let store: UserStore
  }

  private func subject(_ kind: DocumentBackendKind) async throws -> Subject {
    let rig = try EmulatorRig(.inProcess)
    switch kind {
    case .fake:
      let store = try makeStore()
      let backend = FakeUserBackend(store: store, sessionStore: InMemorySessionStore())
      _ = try await backend.signUp(.email("ann@example.com", password: "secret1"))
      return Subject(rig: rig, backend: backend, store: store)
    case .firebase:
      let backend = try rig.firebase()
      _ = try await backend.signUp(.email("ann@example.com", password: "secret1"))
      return Subject(rig: rig, backend: backend, store: rig.store)
    case .ncmb:
      let backend = try rig.ncmb()
      _ = try await backend.signUp(.username("ann", password: "secret1"))
      return Subject(rig: rig, backend: backend, store: rig.store)
    }
  }

  private func refusal(_ body: () async throws(UserBackendError) -> Void) async -> String? {
    do {
      try await body()
      return nil
    } catch {
      if case .invalidInput(let field, _) = error.code { return field }
      return error.code.name
    }
  }

  @Test(
    "a name some backend reserves is refused by every backend",
    arguments: DocumentBackendKind.allCases)
  func reservedNamesAreRefusedEverywhere(kind: DocumentBackendKind) async throws {
    let subject = try await subject(kind)
    let docs = subject.backend.userDocuments
    let userID = try #require(try await subject.backend.currentUser()).id
    _ = try await docs.updateDocument(setting: ["keep": .integer(1)], removing: [])
    for (fields, field) in Self.refused {
      #expect(
        await refusal { () async throws(UserBackendError) in
          _ = try await docs.updateDocument(setting: fields, removing: [])
        } == field, "update \(fields)")
      #expect(
        await refusal { () async throws(UserBackendError) in
          _ = try await docs.createDocument(userID: nil, fields: fields)
        } == field, "create \(fields)")
    }
    // A removal may name any stored field (an older version may have stored one of these),
    // except, on NCMB, the user object's own members, which are not document fields there.
    for name in ["__name__", "__type", "objectId"] {
      let refused = kind == .ncmb && name == "objectId" ? "fields.\(name)" : nil
      #expect(
        await refusal { () async throws(UserBackendError) in
          _ = try await docs.updateDocument(setting: [:], removing: [name])
        } == refused, "removing \(name)")
    }
    // Nothing was stored: the document is as before.
    let stored = try #require(try subject.store.document(userID: userID)).fields
    for name in stored.keys {
      #expect(!name.hasPrefix("__"), "\(name) was stored")
    }
    #expect(try await docs.document()?.fields["keep"] == .integer(1))
    await subject.rig.stop()
  }

  @Test(
    "names outside the rule are stored by every backend", arguments: DocumentBackendKind.allCases)
  func otherNamesAreStoredEverywhere(kind: DocumentBackendKind) async throws {
    let subject = try await subject(kind)
    let document = try await subject.backend.userDocuments.updateDocument(
      setting: Self.accepted, removing: [])
    for (name, value) in Self.accepted {
      #expect(document.fields[name] == value, "\(name)")
    }
    await subject.rig.stop()
  }

  /// The emulator's store (both wire protocols write through it) refuses `__` names too.
  @Test func theEmulatorsStoreRefusesDoubleUnderscoreNames() throws {
    let store = try makeStore()
    let user = try store.createUser(
      NewUser(email: "ann@example.com", username: nil, password: "secret1"))
    for fields: [String: DocumentValue] in [
      ["__name__": .integer(1)], ["__type": .string("Date")], ["m": .map(["__op": .null])],
    ] {
      #expect(throws: UserBackendError.self, "\(fields)") {
        _ = try store.updateDocument(userID: user.id, setting: fields, removing: [])
      }
    }
    #expect(try store.document(userID: user.id) == nil)
  }

  /// NCMB's `PUT users/{id}` with `__type` and `iso` at the top level (a Date's shape) is
  /// `E400002` naming the field, and nothing is stored.
  @Test func theNCMBEmulatorRefusesTopLevelDoubleUnderscoreNames() async throws {
    let store = try makeStore()
    let handler = NCMBHandler(store: store)
    let requests = NCMBRequests()
    let signUp = await handler.handle(
      requests.request(
        .post, "/2013-09-01/users", body: ["userName": "ann", "password": "secret1"]))
    let id = try #require(signUp.json["objectId"] as? String)
    let token = try #require(signUp.json["sessionToken"] as? String)
    for body: [String: Any] in [
      ["__type": "Date", "iso": "2026-01-01T00:00:00.000Z"], ["__op": "Delete"],
      ["__x__": 1], ["m": ["__y": 1]],
    ] {
      let answer = await handler.handle(
        requests.request(.put, "/2013-09-01/users/\(id)", body: body, sessionToken: token))
      #expect(answer.status == 400, "\(body)")
      #expect(answer.json["code"] as? String == "E400002", "\(body)")
    }
    #expect(try store.document(userID: id) == nil)
  }
}
