import Foundation

/// What a backend's password policy asks of a new password, as the server listed it.
///
/// Carried by ``UserBackendError/passwordRequirements`` next to
/// ``UserBackendError/Code/weakPassword(minimumLength:)`` when the server said which rules
/// the password broke (Firebase `PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password
/// requirements: [...]`, `WEAK_PASSWORD : Password should be at least 6 characters`).
/// Only what the server stated is set: a list that names only a maximum length has
/// ``minimumLength`` `nil`. A rule this version cannot classify is kept word for word in
/// ``unrecognized``.
public struct PasswordRequirements: Sendable, Hashable {
  /// A kind of character the password must contain at least once.
  public enum CharacterClass: String, Sendable, Hashable, CaseIterable {
    /// A lower-case letter (`a`–`z`).
    case lowercase
    /// An upper-case letter (`A`–`Z`).
    case uppercase
    /// A digit (`0`–`9`).
    case digit
    /// A character that is neither a letter nor a digit (`!`, `#`, …).
    case nonAlphanumeric

    /// `"a lower case letter"`, `"a digit"`, …
    public var phrase: String {
      switch self {
      case .lowercase: "a lower case letter"
      case .uppercase: "an upper case letter"
      case .digit: "a digit"
      case .nonAlphanumeric: "a character that is not a letter or a digit"
      }
    }
  }

  /// The smallest number of characters the server asked for, when it stated one.
  public var minimumLength: Int?
  /// The largest number of characters the server allows, when it stated one.
  public var maximumLength: Int?
  /// The character classes the password must contain, in the server's order, no repeats.
  public var characterClasses: [CharacterClass]
  /// Rules the server listed that are none of the above, verbatim.
  public var unrecognized: [String]

  /// Requirements; every part optional.
  public init(
    minimumLength: Int? = nil, maximumLength: Int? = nil,
    characterClasses: [CharacterClass] = [], unrecognized: [String] = []
  ) {
    self.minimumLength = minimumLength
    self.maximumLength = maximumLength
    self.characterClasses = characterClasses
    self.unrecognized = unrecognized
  }

  /// `true` when nothing was stated.
  public var isEmpty: Bool {
    minimumLength == nil && maximumLength == nil && characterClasses.isEmpty
      && unrecognized.isEmpty
  }

  /// One English sentence per kind of rule, only with what was stated: `"The password must
  /// be at most 25 characters long."`, `"The password must contain an upper case letter
  /// and a digit."`; unrecognised rules follow verbatim.
  public var summary: String {
    var rules: [String] = []
    switch (minimumLength, maximumLength) {
    case (let minimum?, let maximum?):
      rules.append("be at least \(minimum) and at most \(maximum) characters long")
    case (let minimum?, nil): rules.append("be at least \(minimum) characters long")
    case (nil, let maximum?): rules.append("be at most \(maximum) characters long")
    case (nil, nil): break
    }
    if !characterClasses.isEmpty {
      rules.append("contain " + Self.list(characterClasses.map(\.phrase)))
    }
    var sentences: [String] = []
    if !rules.isEmpty { sentences.append("The password must " + Self.list(rules) + ".") }
    for rule in unrecognized {
      sentences.append(rule.hasSuffix(".") ? rule : rule + ".")
    }
    return sentences.joined(separator: " ")
  }

  private static func list(_ items: [String]) -> String {
    guard items.count > 1, let last = items.last else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " and " + last
  }
}
