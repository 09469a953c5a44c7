import Foundation

extension IdentifierCanonicalization {
  /// The numbering-plan facts checked for one country calling code.
  struct CountryRule: Sendable {
    /// The country calling code, e.g. `"81"`.
    var code: String
    /// How many digits may follow the country code (the national significant number).
    var nationalDigits: ClosedRange<Int>
    /// Digits a national significant number never starts with: the trunk prefix (`0`
    /// nearly everywhere, `1` for the North American plan), which belongs to national
    /// dialling only.
    var forbiddenFirstDigits: Set<Character> = ["0"]
  }

  /// The countries whose rules are known here; any other country calling code gets only
  /// the E.164 checks. Lengths are those of each national numbering plan; Italy, San
  /// Marino and the Vatican keep the leading `0` of fixed-line numbers after the country
  /// code, so nothing is forbidden there.
  static let countryRules: [CountryRule] = [
    CountryRule(code: "1", nationalDigits: 10...10, forbiddenFirstDigits: ["0", "1"]),
    CountryRule(code: "7", nationalDigits: 10...10),
    CountryRule(code: "33", nationalDigits: 9...9),
    CountryRule(code: "34", nationalDigits: 9...9),
    CountryRule(code: "39", nationalDigits: 6...11, forbiddenFirstDigits: []),
    CountryRule(code: "44", nationalDigits: 7...10),
    CountryRule(code: "49", nationalDigits: 6...13),
    CountryRule(code: "52", nationalDigits: 10...10),
    CountryRule(code: "55", nationalDigits: 10...11),
    CountryRule(code: "61", nationalDigits: 6...10),
    CountryRule(code: "81", nationalDigits: 9...10),
    CountryRule(code: "82", nationalDigits: 8...10),
    CountryRule(code: "86", nationalDigits: 9...11),
    CountryRule(code: "91", nationalDigits: 10...10),
    CountryRule(code: "378", nationalDigits: 6...10, forbiddenFirstDigits: []),
    CountryRule(code: "379", nationalDigits: 6...11, forbiddenFirstDigits: []),
  ]

  /// The canonical form of a phone number: E.164 with surrounding whitespace trimmed.
  ///
  /// E.164 here is `+`, then 8 to 15 ASCII digits (``PhoneNumber/minimumDigits``,
  /// ``PhoneNumber/maximumDigits``), the first not `0`; nothing else (no spaces, dashes or
  /// full-width digits). For the country codes in a known table (+1, +7, +33, +34, +39,
  /// +44, +49, +52, +55, +61, +81, +82, +86, +91, +378, +379) the digits after the country
  /// code must also have the country's length and must not start with its trunk prefix.
  ///
  /// A trunk prefix kept after the country code (`+8109012345678`, "+81" typed in front of
  /// the national `090…`) is refused, not repaired: the same digits are a different,
  /// valid number in Italy, and an identifier must never be rewritten into another
  /// account's number by a guess. The error says what to drop.
  ///
  /// - Returns: the trimmed number.
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "phoneNumber", reason:)`.
  public static func phoneNumber(_ number: String) throws(UserBackendError) -> String {
    let trimmed = number.trimmingCharacters(in: .whitespacesAndNewlines)
    guard trimmed.first == "+" else {
      throw invalidPhone("must start with + and the country calling code (E.164)")
    }
    let digits = trimmed.dropFirst()
    guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      throw invalidPhone("must contain only digits after the + (E.164)")
    }
    let range = PhoneNumber.minimumDigits...PhoneNumber.maximumDigits
    guard range.contains(digits.count) else {
      throw invalidPhone(
        "must have \(PhoneNumber.minimumDigits) to \(PhoneNumber.maximumDigits) digits (E.164)")
    }
    guard digits.first != "0" else {
      throw invalidPhone("a country calling code never starts with 0 (E.164)")
    }
    guard let rule = countryRules.first(where: { digits.hasPrefix($0.code) }) else {
      return trimmed
    }
    let national = digits.dropFirst(rule.code.count)
    if let first = national.first, rule.forbiddenFirstDigits.contains(first) {
      throw invalidPhone(
        "must not keep the trunk prefix \(first) after the country code +\(rule.code) (E.164)")
    }
    guard rule.nationalDigits.contains(national.count) else {
      let count =
        rule.nationalDigits.count == 1
        ? "\(rule.nationalDigits.lowerBound)"
        : "\(rule.nationalDigits.lowerBound) to \(rule.nationalDigits.upperBound)"
      throw invalidPhone("must have \(count) digits after the country code +\(rule.code)")
    }
    return trimmed
  }

  private static func invalidPhone(_ reason: String) -> UserBackendError {
    UserBackendError(.invalidInput(field: "phoneNumber", reason: reason))
  }
}
