import Foundation
import UserBackendKit

/// Checks a decoded contract beyond its JSON shape: labels are unique and referred to
/// only after they are defined, variables are declared, expectations fit their
/// operations, clock steps declare ``Contract/controllableClock`` and `rawGetDocument`
/// steps ``Contract/rawServerRequests``.
enum ContractValidation {
  /// A problem and the key path where it is (`steps[3].expect.user.sameUserAs`).
  struct Issue: Error, Equatable {
    var keyPath: String
    var message: String
  }

  /// - Throws: the first ``Issue`` found.
  static func validate(_ contract: Contract) throws {
    var labels: [String: OperationName] = [:]
    for (index, step) in contract.steps.enumerated() {
      let path = "steps[\(index)]"
      try checkVariables(step, path: path, declared: Set(contract.variables.keys))
      try checkReferences(step, path: path, labels: labels)
      try checkExpectation(step, path: path)
      if case .advanceClock = step.operation,
        !contract.requires.contains(Contract.controllableClock)
      {
        throw Issue(
          keyPath: path + ".op", message: "advanceClock needs \"controllableClock\" in requires")
      }
      if case .rawGetDocument = step.operation,
        !contract.requires.contains(Contract.rawServerRequests)
      {
        throw Issue(
          keyPath: path + ".op",
          message: "rawGetDocument needs \"\(Contract.rawServerRequests)\" in requires")
      }
      try checkDevice(step, path: path, labels: labels)
      if case .expectEvents = step.operation, !labels.values.contains(.authStateChanges) {
        throw Issue(
          keyPath: path + ".op", message: "expectEvents needs an earlier authStateChanges step")
      }
      if let label = step.label {
        guard labels[label] == nil else {
          throw Issue(keyPath: path + ".label", message: "label \"\(label)\" is used twice")
        }
        labels[label] = step.operation.name
      } else if case .authStateChanges = step.operation {
        labels["#subscription\(index)"] = .authStateChanges
      }
    }
  }

  /// `addDevice` is labelled (its label names the device); `device` names an earlier
  /// `addDevice` step and carries an operation a device can run.
  private static func checkDevice(
    _ step: ContractStep, path: String, labels: [String: OperationName]
  ) throws {
    if case .addDevice = step.operation {
      guard step.label != nil else {
        throw Issue(
          keyPath: path + ".label", message: "addDevice needs a label (the device's name)")
      }
      if step.expectation != nil {
        throw Issue(keyPath: path + ".expect", message: "addDevice cannot expect anything")
      }
    }
    guard let device = step.device else { return }
    guard labels[device] == .addDevice else {
      throw Issue(
        keyPath: path + ".device", message: "no earlier addDevice step is labelled \"\(device)\"")
    }
    let mainOnly: Set<OperationName> = [
      .restart, .advanceClock, .concurrent, .authStateChanges, .expectEvents, .addDevice,
    ]
    if mainOnly.contains(step.operation.name) {
      throw Issue(
        keyPath: path + ".device",
        message: "\(step.operation.name.rawValue) runs on the main backend only")
    }
  }

  private static func checkVariables(_ step: ContractStep, path: String, declared: Set<String>)
    throws
  {
    let tree = try JSONValue.of(step)
    for (keyPath, text) in tree.stringsWithPaths(prefix: path) {
      for name in ContractVariables.references(in: text) where !declared.contains(name) {
        throw Issue(keyPath: keyPath, message: "variable {{\(name)}} is not declared in variables")
      }
      do {
        _ = try ContractVariables.substitute(
          text, Dictionary(uniqueKeysWithValues: declared.map { ($0, "") }))
      } catch {
        throw Issue(keyPath: keyPath, message: "\(error)")
      }
    }
  }

  private static func checkReferences(
    _ step: ContractStep, path: String, labels: [String: OperationName]
  ) throws {
    func require(_ label: String?, _ keyPath: String, _ allowed: Set<OperationName>? = nil) throws {
      guard let label else { return }
      guard let operation = labels[label] else {
        throw Issue(keyPath: path + keyPath, message: "no earlier step is labelled \"\(label)\"")
      }
      if let allowed, !allowed.contains(operation) {
        throw Issue(
          keyPath: path + keyPath,
          message: "step \"\(label)\" is a \(operation.rawValue), expected "
            + allowed.map(\.rawValue).sorted().joined(separator: " or "))
      }
    }
    func checkOperation(_ operation: ContractOperation, _ inputPath: String) throws {
      switch operation {
      case .signInWithPhone(let input):
        try require(input.verification, inputPath + ".verification", [.startPhoneVerification])
      case .expectEvents(let subscription):
        try require(subscription, inputPath + ".subscription", [.authStateChanges])
      case .getDocument(let target), .deleteDocument(let target), .rawGetDocument(let target):
        try require(target.user, inputPath + ".user")
      case .createDocument(let input): try require(input.user, inputPath + ".user")
      case .updateDocument(let input): try require(input.user, inputPath + ".user")
      case .concurrent(let input):
        for (number, inner) in input.operations.enumerated() {
          try checkOperation(inner, inputPath + ".steps[\(number)].input")
        }
      default: break
      }
    }
    try checkOperation(step.operation, ".input")
    func checkShape(_ shape: UserShape, _ keyPath: String) throws {
      try require(shape.sameUserAs, keyPath + ".sameUserAs")
      try require(shape.differentUserFrom, keyPath + ".differentUserFrom")
    }
    switch step.expectation {
    case .user(let shape): try checkShape(shape, ".expect.user")
    case .token(let token):
      try require(token.differentFrom, ".expect.token.differentFrom", [.idToken, .concurrent])
      try require(token.sameAs, ".expect.token.sameAs", [.idToken, .concurrent])
      try require(token.sameUserAs, ".expect.token.sameUserAs")
      try require(token.notOlderThan, ".expect.token.notOlderThan", [.idToken, .concurrent])
    case .events(let events):
      for (number, event) in events.enumerated() {
        if let shape = event.user { try checkShape(shape, ".expect.events[\(number)].user") }
      }
    case .document(let document):
      try require(document.sameUserAs, ".expect.document.sameUserAs")
      for (name, field) in (document.fields ?? [:]).sorted(by: { $0.key < $1.key }) {
        if case .userIDOf(let label) = field {
          try require(label, ".expect.document.fields.\(name).userIDOf")
        }
      }
    default: break
    }
  }

  private static func checkExpectation(_ step: ContractStep, path: String) throws {
    let name = step.operation.name
    let returnsUser: Set<OperationName> = [
      .signUp, .signIn, .currentUser, .signInAnonymously, .signInWithPhone,
      .signInWithIdentityProvider, .reload, .updateProfile, .updateEmail, .reauthenticate,
      .linkPassword,
    ]
    let returnsUserOnly: Set<OperationName> = [.currentUser, .reload, .updateProfile, .updateEmail]
    let returnsDocument: Set<OperationName> = [
      .getDocument, .createDocument, .updateDocument, .ensureDocument,
    ]
    let problem: String? =
      switch step.expectation {
      case .user where !returnsUser.contains(name):
        "a user expectation needs an operation that returns a user"
      case .user(let shape) where shape.isNewUser != nil && returnsUserOnly.contains(name):
        "isNewUser is known only for operations that return a session"
      case .document where !returnsDocument.contains(name):
        "a document expectation needs getDocument, createDocument, updateDocument or "
          + "ensureDocument"
      case .document(let document)
      where document.created != nil && name != .createDocument && name != .ensureDocument:
        "created is known only for createDocument and ensureDocument"
      case .document(let document) where document.isNil && name != .getDocument:
        "a document expectation with nil is only for getDocument"
      case .noUser where name != .currentUser: "nil is only for currentUser"
      case .token where name != .idToken: "a token expectation is only for idToken"
      case .outcomes where name != .concurrent: "outcomes are only for concurrent"
      case .events where name != .expectEvents: "events are only for expectEvents"
      case .server where name != .rawGetDocument: "server is only for rawGetDocument"
      case .none where name == .rawGetDocument,
        .some(.success) where name == .rawGetDocument,
        .some(.error) where name == .rawGetDocument:
        "rawGetDocument needs {\"server\": \"refused\"} or {\"server\": \"served\"}"
      case .none where name == .expectEvents: "expectEvents needs {\"events\": [...]}"
      case .some(.error)
      where [.restart, .advanceClock, .concurrent, .authStateChanges, .expectEvents].contains(name):
        "\(name.rawValue) cannot expect an error"
      default: nil
      }
    if let problem { throw Issue(keyPath: path + ".expect", message: problem) }
    if case .concurrent(let input) = step.operation,
      case .outcomes(let counts, _) = step.expectation,
      counts.values.reduce(0, +) != input.operations.count
    {
      throw Issue(
        keyPath: path + ".expect.outcomes",
        message:
          "counts add up to \(counts.values.reduce(0, +)), but \(input.operations.count) operations run"
      )
    }
  }
}

extension JSONValue {
  /// The JSON form of an encodable value.
  static func of(_ value: some Encodable) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
  }

  /// Every string with its key path below `prefix`, in a stable order.
  func stringsWithPaths(prefix: String) -> [(String, String)] {
    switch self {
    case .string(let value): [(prefix, value)]
    case .array(let values):
      values.enumerated().flatMap { $1.stringsWithPaths(prefix: prefix + "[\($0)]") }
    case .object(let values):
      values.keys.sorted().flatMap { values[$0]?.stringsWithPaths(prefix: prefix + "." + $0) ?? [] }
    case .number, .bool, .null: []
    }
  }
}
