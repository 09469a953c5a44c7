import Foundation
import Testing
import UserBackendContracts

@Suite(.timeLimit(.minutes(2))) struct ContractLoaderTests {
  static let valid = """
    {"name": "ok", "description": "d", "requires": ["emailPassword"],
     "variables": {"email": "email"},
     "steps": [{"label": "a", "op": "signUp",
                "input": {"email": "{{email}}", "password": "secret-1"},
                "expect": {"user": {"email": "{{email}}"}}},
               {"op": "currentUser", "expect": {"user": {"sameUserAs": "a"}}}]}
    """

  private func loadError(_ text: String, name: String = "bad.json") throws -> ContractLoadError {
    let dir = try directory(with: [name: text, "ok.json": Self.valid])
    defer { try? FileManager.default.removeItem(at: dir) }
    return try #require(throws: ContractLoadError.self) { try ContractLoader.load(directory: dir) }
  }

  @Test func loadsValidFilesSortedByName() throws {
    let other = Self.valid.replacingOccurrences(
      of: "\"name\": \"ok\"", with: "\"name\": \"a-first\"")
    let dir = try directory(with: ["ok.json": Self.valid, "a-first.json": other, "notes.txt": "x"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let contracts = try ContractLoader.load(directory: dir)
    #expect(contracts.map(\.name) == ["a-first", "ok"])
    #expect(contracts[1].steps.count == 2)
    #expect(contracts[1].steps[0].label == "a")
    #expect(contracts[1].requires == ["emailPassword"])
  }

  @Test func malformedJSONNamesFileAndPosition() throws {
    let error = try loadError("{\n  \"name\": \"bad\",\n  \"steps\": [1,, 2]\n}")
    #expect(error.path.hasSuffix("bad.json"))
    guard case .invalidJSON(let line, _, _) = error.problem else {
      Issue.record("expected invalidJSON, got \(error.problem)")
      return
    }
    #expect(line == 3)
    #expect(error.description.contains("bad.json"))
    #expect(error.description.contains("line 3"))
  }

  @Test func unknownOperationNamesKeyPath() throws {
    let text = Self.valid.replacingOccurrences(of: "\"currentUser\"", with: "\"currentUsr\"")
      .replacingOccurrences(of: "\"name\": \"ok\"", with: "\"name\": \"bad\"")
    let error = try loadError(text)
    #expect(error.problem == .unknownOperation("currentUsr"))
    #expect(error.keyPath == "steps[1].op")
    #expect(error.description.contains("unknown operation \"currentUsr\""))
    #expect(error.description.contains("signUp"))
  }

  @Test func missingFieldNamesKeyPath() throws {
    let text = Self.valid.replacingOccurrences(of: ", \"password\": \"secret-1\"", with: "")
      .replacingOccurrences(of: "\"name\": \"ok\"", with: "\"name\": \"bad\"")
    let error = try loadError(text)
    #expect(error.problem == .missingKey("password"))
    #expect(error.keyPath == "steps[0].input.password")
    #expect(error.description.contains("bad.json: steps[0].input.password: missing key"))
  }

  @Test func missingTopLevelKey() throws {
    let error = try loadError(#"{"name": "bad", "steps": [{"op": "signOut"}]}"#)
    #expect(error.problem == .missingKey("description"))
  }

  @Test func unknownKeyIsATypo() throws {
    let text = Self.valid.replacingOccurrences(of: "\"sameUserAs\"", with: "\"sameUser\"")
      .replacingOccurrences(of: "\"name\": \"ok\"", with: "\"name\": \"bad\"")
    let error = try loadError(text)
    guard case .unknownKey("sameUser", _) = error.problem else {
      Issue.record("expected unknownKey, got \(error.problem)")
      return
    }
    #expect(error.keyPath == "steps[1].expect.user.sameUser")
  }

  @Test(arguments: [
    ("{{emial}}", "not declared"),
    ("\"sameUserAs\": \"zzz\"", "no earlier step is labelled \"zzz\""),
  ])
  func semanticChecksNameTheProblem(replacement: String, message: String) throws {
    var text = Self.valid.replacingOccurrences(of: "\"name\": \"ok\"", with: "\"name\": \"bad\"")
    if replacement.hasPrefix("{{") {
      text = text.replacingOccurrences(
        of: "\"password\": \"secret-1\"", with: "\"password\": \"\(replacement)\"")
    } else {
      text = text.replacingOccurrences(of: "\"sameUserAs\": \"a\"", with: replacement)
    }
    let error = try loadError(text)
    #expect(error.description.contains(message))
    #expect(error.keyPath.hasPrefix("steps["))
  }

  @Test func unknownErrorNameAndWrongExpectationKind() throws {
    let unknown = try loadError(
      #"{"name": "bad", "description": "d", "steps": [{"op": "signOut", "expect": {"error": "nope"}}]}"#
    )
    #expect(unknown.keyPath == "steps[0].expect.error")
    let misplaced = try loadError(
      #"{"name": "bad", "description": "d", "steps": [{"op": "signOut", "expect": {"nil": true}}]}"#
    )
    #expect(misplaced.description.contains("nil is only for currentUser"))
  }

  @Test func clockStepsMustDeclareTheClock() throws {
    let error = try loadError(
      #"{"name": "bad", "description": "d", "steps": [{"op": "advanceClock", "input": {"seconds": 5}}]}"#
    )
    #expect(error.description.contains("controllableClock"))
  }

  @Test func nameMustMatchFileName() throws {
    let error = try loadError(Self.valid, name: "other.json")
    #expect(error.keyPath == "name")
    #expect(error.path.hasSuffix("other.json"))
  }

  @Test func concurrentCountsMustAddUp() throws {
    let error = try loadError(
      #"""
      {"name": "bad", "description": "d", "steps": [{"op": "concurrent",
        "input": {"copies": 3, "step": {"op": "signOut"}},
        "expect": {"outcomes": {"success": 2}}}]}
      """#)
    #expect(error.description.contains("add up to 2"))
  }

  @Test func bundledContractsLoadAndRoundTrip() throws {
    let contracts = try ContractLoader.load(directory: contractsDirectory)
    #expect(contracts.count >= 24)
    for contract in contracts {
      let data = try JSONEncoder().encode(contract)
      let again = try ContractLoader.decode(data, path: contract.name)
      #expect(again == contract)
    }
    let required = Set(contracts.flatMap(\.requires).map(\.rawValue))
    for capability in [
      "emailPassword", "usernamePassword", "tokenRefresh", "controllableClock",
      "anonymousSignIn", "phoneNumberSignIn", "identityProviderSignIn", "passwordReset",
      "accountDeletion", "authStateChanges", "userReload", "profileUpdate", "passwordUpdate",
      "emailUpdate", "emailVerification", "passwordResetCompletion", "reauthentication",
      "anonymousUpgrade", "userDocuments",
    ] {
      #expect(required.contains(capability), "no contract requires \(capability)")
    }
  }
}
