import Foundation
import UserBackendKit

/// Compares an operation's result with a step's expectation; pure and synchronous.
struct ExpectationMatcher {
  /// Earlier steps' values by label.
  var records: [String: StepValue]

  /// A mismatch: what was expected and what happened, both in words without secrets.
  struct Mismatch: Error {
    var expected: String
    var actual: String
  }

  /// `nil` when `result` meets `expectation` (`nil` expectation: any success).
  func check(_ expectation: Expectation?, _ result: Result<StepValue, any Error>) -> Mismatch? {
    switch (expectation ?? .success, result) {
    case (.error(let expected), .success(let value)):
      return Mismatch(expected: describeExpected(expected), actual: value.summary)
    case (.error(let expected), .failure(let error)):
      return matchError(expected, error)
    case (let expectation, .failure(let error)):
      return Mismatch(expected: describeExpected(expectation), actual: describeError(error))
    case (.success, .success):
      return nil
    case (.noUser, .success(let value)):
      return value.user == nil ? nil : Mismatch(expected: "no user (nil)", actual: value.summary)
    case (.user(let shape), .success(let value)):
      return matchUser(shape, value)
    case (.token(let expected), .success(let value)):
      return matchToken(expected, value)
    case (.outcomes(let counts, let refreshes), .success(let value)):
      let wanted = describeExpected(.outcomes(counts, refreshRequests: refreshes))
      guard case .outcomes(let actual, _, let seen, _) = value else {
        return Mismatch(expected: wanted, actual: value.summary)
      }
      let observed =
        value.summary
        + (refreshes != nil
          ? seen.map { ", \($0) token refresh request(s) on the wire" } ?? "" : "")
      if actual.filter({ $0.value > 0 }) != counts.filter({ $0.value > 0 }) {
        return Mismatch(expected: wanted, actual: observed)
      }
      // Only an environment that sees the wire can count; the others are not judged.
      if let refreshes, let seen, seen != refreshes {
        return Mismatch(expected: wanted, actual: observed)
      }
      return nil
    case (.events(let expected), .success(let value)):
      guard case .events(let events) = value else {
        return Mismatch(expected: "\(expected.count) events", actual: value.summary)
      }
      return matchEvents(expected, events)
    case (.document(let expected), .success(let value)):
      return matchDocument(expected, value)
    case (.server(let expected), .success(let value)):
      guard case .serverAnswer(let answer) = value, answer.kind == expected else {
        return Mismatch(expected: describeExpected(.server(expected)), actual: value.summary)
      }
      return nil
    }
  }

  private func matchError(_ expected: ErrorExpectation, _ error: any Error) -> Mismatch? {
    let mismatch = Mismatch(expected: describeExpected(expected), actual: describeError(error))
    guard let error = error as? UserBackendError, error.code.name == expected.error else {
      return mismatch
    }
    switch error.code {
    case .invalidInput(let field, _) where expected.field != nil && expected.field != field:
      return mismatch
    case .weakPassword(let minimum)
    where expected.minimumLength != nil && expected.minimumLength != minimum:
      return mismatch
    default: return nil
    }
  }

  /// The differences between a user (and its session) and a shape; empty when it matches.
  func differences(_ shape: UserShape, user: User, isNewUser: Bool?) -> [String] {
    var problems: [String] = []
    func compare(_ name: String, _ expected: String?, _ actual: String?) {
      guard let expected, expected != actual else { return }
      problems.append("\(name) \"\(expected)\" but got " + (actual.map { "\"\($0)\"" } ?? "none"))
    }
    // Literal comparison: the contract writes the canonical form; canonicalising both
    // sides with the code under test would accept whatever that code produces.
    compare("email", shape.email, user.email)
    compare("username", shape.username, user.username)
    compare("phoneNumber", shape.phoneNumber, user.phoneNumber)
    // `""` expects none, as `updateProfile` removes a field with `""`.
    func compareOptional(_ name: String, _ expected: String?, _ actual: String?) {
      guard let expected else { return }
      let actual = actual?.isEmpty == true ? nil : actual
      if expected.isEmpty {
        if let actual { problems.append("no \(name) but got \"\(actual)\"") }
      } else {
        compare(name, expected, actual)
      }
    }
    compareOptional("displayName", shape.displayName, user.displayName)
    compareOptional("photoURL", shape.photoURL, user.photoURL?.absoluteString)
    if let expected = shape.emailVerified, expected != user.emailVerified {
      problems.append(
        "emailVerified \(expected) but got " + (user.emailVerified.map { "\($0)" } ?? "unknown"))
    }
    func presence(_ name: String, _ expected: Bool?, _ actual: Date?) {
      guard let expected, expected != (actual != nil) else { return }
      problems.append(
        expected
          ? "\(name) to be known but got none"
          : "no \(name) but got \(actual.map { "\($0)" } ?? "")")
    }
    presence("createdAt", shape.createdAt, user.createdAt)
    presence("lastSignInAt", shape.lastSignInAt, user.lastSignInAt)
    if let providers = shape.providers, providers.sorted() != user.providers.sorted() {
      problems.append(
        "providers [\(providers.sorted().joined(separator: ", "))] but got "
          + "[\(user.providers.sorted().joined(separator: ", "))]")
    }
    if let anonymous = shape.isAnonymous, anonymous != user.isAnonymous {
      problems.append("isAnonymous \(anonymous) but got \(user.isAnonymous)")
    }
    if let expected = shape.isNewUser, expected != isNewUser {
      problems.append("isNewUser \(expected) but got " + (isNewUser.map { "\($0)" } ?? "unknown"))
    }
    if let label = shape.sameUserAs {
      if let problem = sameUser(label, user, same: true) { problems.append(problem) }
    }
    if let label = shape.differentUserFrom {
      if let problem = sameUser(label, user, same: false) { problems.append(problem) }
    }
    return problems
  }

  func sameUser(_ label: String, _ user: User, same: Bool) -> String? {
    guard let other = records[label]?.user else {
      return "step \"\(label)\" produced no user to compare with"
    }
    if same, other.id != user.id {
      return "the user of step \"\(label)\" (id \"\(other.id)\") but got id \"\(user.id)\""
    }
    if !same, other.id == user.id {
      return "a user other than step \"\(label)\"'s but got the same id \"\(user.id)\""
    }
    return nil
  }

  private func matchUser(_ shape: UserShape, _ value: StepValue) -> Mismatch? {
    let isNewUser: Bool? =
      if case .session(let session) = value { session.isNewUser } else { nil }
    guard let user = value.user else {
      return Mismatch(expected: describeExpected(.user(shape)), actual: value.summary)
    }
    let problems = differences(shape, user: user, isNewUser: isNewUser)
    return problems.isEmpty
      ? nil
      : Mismatch(
        expected: describeExpected(.user(shape)),
        actual: value.summary + " — differs: " + problems.joined(separator: "; "))
  }

  private func matchToken(_ expected: TokenExpectation, _ value: StepValue) -> Mismatch? {
    let wanted = describeExpected(.token(expected))
    guard case .token(let token, let user, let subject, let refreshes) = value, !token.isEmpty
    else {
      return Mismatch(expected: wanted, actual: value.summary)
    }
    // Only an environment that sees the wire can count; the others are not judged.
    if let expected = expected.refreshRequests, let refreshes, refreshes != expected {
      return Mismatch(
        expected: wanted, actual: "\(refreshes) token refresh request(s) on the wire")
    }
    if let label = expected.notOlderThan, let problem = olderThan(label, token) {
      return Mismatch(expected: wanted, actual: problem)
    }
    // A concurrent step is compared through every token it produced, not its first.
    if let label = expected.differentFrom {
      let others = records[label]?.tokens ?? []
      if others.isEmpty {
        return Mismatch(expected: wanted, actual: "step \"\(label)\" produced no token")
      }
      if others.contains(token) {
        return Mismatch(expected: wanted, actual: "the same token as step \"\(label)\"")
      }
    }
    if let label = expected.sameAs {
      let others = records[label]?.tokens ?? []
      if others.isEmpty {
        return Mismatch(expected: wanted, actual: "step \"\(label)\" produced no token")
      }
      let differing = others.filter { $0 != token }.count
      if differing > 0 {
        return Mismatch(
          expected: wanted,
          actual: others.count == 1
            ? "a token different from step \"\(label)\"'s"
            : "a token different from \(differing) of the \(others.count) tokens of step "
              + "\"\(label)\" (they must all be the same)")
      }
    }
    if let label = expected.sameUserAs {
      guard let other = records[label]?.user else {
        return Mismatch(
          expected: wanted, actual: "step \"\(label)\" produced no user to compare with")
      }
      guard let subject else {
        return Mismatch(expected: wanted, actual: "a token whose subject cannot be read")
      }
      if subject != other.id {
        return Mismatch(
          expected: wanted,
          actual: "a token whose subject is \"\(subject)\", not the user of step \"\(label)\" "
            + "(id \"\(other.id)\")")
      }
      guard let user else {
        return Mismatch(expected: wanted, actual: "a token, but currentUser() is nil")
      }
      if let problem = sameUser(label, user, same: true) {
        return Mismatch(
          expected: wanted, actual: "a token, but the signed-in user is not " + problem)
      }
    }
    return nil
  }

  /// Why `token` was issued before a token of step `label` (JWT `iat`, seconds), or `nil`.
  private func olderThan(_ label: String, _ token: String) -> String? {
    let others = records[label]?.tokens ?? []
    if others.isEmpty { return "step \"\(label)\" produced no token" }
    func issued(_ token: String) -> TimeInterval? {
      (try? JSONWebToken(parsing: token))?.numericClaim("iat")
    }
    guard let issuedAt = issued(token) else { return "a token without an iat claim" }
    for other in others {
      guard let otherIssuedAt = issued(other) else {
        return "step \"\(label)\" has a token without an iat claim"
      }
      if issuedAt < otherIssuedAt {
        // Printed as read (a Double): a hostile iat such as 1e300 has no Int value.
        return "a token issued at iat \(issuedAt), before step \"\(label)\"'s (\(otherIssuedAt))"
      }
    }
    return nil
  }

  private func matchEvents(_ expected: [EventExpectation], _ events: [AuthStateChange])
    -> Mismatch?
  {
    let wanted = "events " + expected.map(describeExpected).joined(separator: ", ")
    guard events.count >= expected.count else {
      return Mismatch(
        expected: wanted,
        actual: "only \(events.count) event(s) in time: " + describeEvents(events))
    }
    // Exact: the list is every event so far, so an extra (duplicated) event fails too.
    guard events.count == expected.count else {
      return Mismatch(
        expected: wanted,
        actual: "\(events.count) events, \(events.count - expected.count) more than expected: "
          + describeEvents(events))
    }
    for (index, (want, got)) in zip(expected, events).enumerated() {
      var problems: [String] = []
      if want.event != got.event {
        problems.append("event \(want.event.rawValue) but got \(got.event.rawValue)")
      }
      if want.isNil, let user = got.user { problems.append("no user but got " + describe(user)) }
      if let shape = want.user {
        if let user = got.user {
          problems += differences(shape, user: user, isNewUser: nil)
        } else {
          problems.append("a user but got none")
        }
      }
      if !problems.isEmpty {
        return Mismatch(
          expected: wanted,
          actual: describeEvents(Array(events.prefix(expected.count)))
            + " — event \(index + 1) differs: " + problems.joined(separator: "; "))
      }
    }
    return nil
  }

  /// An expectation in words.
  func describeExpected(_ expectation: Expectation) -> String {
    switch expectation {
    case .success: return "success"
    case .noUser: return "no user (nil)"
    case .error(let error): return describeExpected(error)
    case .outcomes(let counts, let refreshes):
      return "outcomes " + describeCounts(counts)
        + (refreshes.map { ", \($0) token refresh request(s) on the wire" } ?? "")
    case .events(let events):
      return "events " + events.map(describeExpected).joined(separator: ", ")
    case .user(let shape): return "user(" + describeShape(shape) + ")"
    case .document(let document): return describeExpected(document)
    case .server(.refused):
      return "the server itself to refuse the read (the protocol's refusal status and code)"
    case .server(let kind): return "the server to answer the read: \(kind.rawValue)"
    case .token(let token):
      var parts: [String] = []
      if let label = token.differentFrom { parts.append("different from step \"\(label)\"") }
      if let label = token.sameAs { parts.append("same as step \"\(label)\"") }
      if let label = token.sameUserAs {
        parts.append("whose subject is the user of step \"\(label)\"")
      }
      if let label = token.notOlderThan {
        parts.append("issued no earlier than step \"\(label)\"'s")
      }
      if let count = token.refreshRequests {
        parts.append("after \(count) token refresh request(s) on the wire")
      }
      return "a non-empty token" + (parts.isEmpty ? "" : " " + parts.joined(separator: ", "))
    }
  }

  private func describeExpected(_ error: ErrorExpectation) -> String {
    var text = "error " + error.error
    if let field = error.field { text += "(field: \(field))" }
    if let minimum = error.minimumLength { text += "(minimumLength: \(minimum))" }
    return text
  }

  private func describeExpected(_ event: EventExpectation) -> String {
    event.event.rawValue + "("
      + (event.isNil ? "nil" : event.user.map(describeShape) ?? "any") + ")"
  }

  private func describeShape(_ shape: UserShape) -> String {
    var parts: [String] = []
    if let value = shape.email { parts.append("email: \"\(value)\"") }
    if let value = shape.username { parts.append("username: \"\(value)\"") }
    if let value = shape.phoneNumber { parts.append("phoneNumber: \"\(value)\"") }
    if let value = shape.displayName { parts.append("displayName: \"\(value)\"") }
    if let value = shape.photoURL { parts.append("photoURL: \"\(value)\"") }
    if let value = shape.emailVerified { parts.append("emailVerified: \(value)") }
    if let value = shape.createdAt { parts.append("createdAt " + (value ? "known" : "unknown")) }
    if let value = shape.lastSignInAt {
      parts.append("lastSignInAt " + (value ? "known" : "unknown"))
    }
    if let value = shape.providers {
      parts.append("providers: [\(value.sorted().joined(separator: ", "))]")
    }
    if let value = shape.isAnonymous { parts.append("isAnonymous: \(value)") }
    if let value = shape.isNewUser { parts.append("isNewUser: \(value)") }
    if let label = shape.sameUserAs { parts.append("same user as step \"\(label)\"") }
    if let label = shape.differentUserFrom { parts.append("not the user of step \"\(label)\"") }
    return parts.isEmpty ? "any" : parts.joined(separator: ", ")
  }
}
