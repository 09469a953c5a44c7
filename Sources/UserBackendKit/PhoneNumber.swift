/// Phone-number helpers for phone sign-in: E.164 checks and national-to-E.164 conversion.
///
/// E.164 here means `+`, a country calling code that does not start with `0`, and 8 to 15
/// digits in all, nothing else (no spaces or dashes): `+819012345678`; for the countries
/// ``IdentifierCanonicalization/phoneNumber(_:)`` knows, also the country's length and no
/// trunk prefix after the country code (`+8109012345678` is refused).
public enum PhoneNumber {
  /// The fewest digits an E.164 number may have here (after the `+`).
  public static let minimumDigits = 8
  /// The most digits an E.164 number may have (ITU-T E.164).
  public static let maximumDigits = 15

  /// Country calling codes whose national numbers keep their leading `0` after the
  /// country code (Italy, San Marino, Vatican City), so no trunk prefix is dropped.
  static let codesKeepingLeadingZero: Set<String> = ["39", "378", "379"]

  /// Checks that `number` is E.164 and returns its canonical form: the shared rule of
  /// ``IdentifierCanonicalization/phoneNumber(_:)`` (`+` then 8–15 ASCII digits, the first
  /// not `0`, the country's length and no trunk prefix where known; surrounding whitespace
  /// trimmed).
  ///
  /// - Returns: the canonical number.
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "phoneNumber", reason:)`.
  @discardableResult
  public static func validateE164(_ number: String) throws(UserBackendError) -> String {
    try IdentifierCanonicalization.phoneNumber(number)
  }

  /// Converts a number as dialled inside its country to E.164.
  ///
  /// Spaces, dashes, dots and parentheses are removed and one leading trunk prefix `0` is
  /// dropped (except for country codes whose numbers keep it, such as Italy's `39`):
  /// `e164(national: "090-1234-5678", countryCallingCode: "81")` is `"+819012345678"`.
  /// A `national` value that already starts with `+` is only cleaned and validated.
  ///
  /// - Parameters:
  ///   - national: the number as written nationally, e.g. `"090-1234-5678"`.
  ///   - countryCallingCode: 1–3 digits, with or without a leading `+`, e.g. `"81"`.
  /// - Returns: the E.164 number.
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "phoneNumber")` for letters or a
  ///   bad length, `.invalidInput(field: "countryCallingCode")` for a bad country code.
  public static func e164(national: String, countryCallingCode: String) throws(UserBackendError)
    -> String
  {
    let separators: Set<Character> = [" ", "-", ".", "(", ")", "\u{00A0}"]
    let cleaned = String(national.trimmingWhitespace().filter { !separators.contains($0) })
    if cleaned.hasPrefix("+") { return try validateE164(cleaned) }
    let country = countryCallingCode.trimmingWhitespace()
    let countryDigits = String(country.hasPrefix("+") ? country.dropFirst() : country)
    guard (1...3).contains(countryDigits.count),
      countryDigits.allSatisfy({ $0.isASCII && $0.isNumber }), countryDigits.first != "0"
    else {
      throw UserBackendError(
        .invalidInput(field: "countryCallingCode", reason: "must be 1 to 3 digits, e.g. 81"))
    }
    guard !cleaned.isEmpty, cleaned.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      throw invalid("must contain only digits, spaces, dashes, dots and parentheses")
    }
    var subscriber = Substring(cleaned)
    if subscriber.first == "0" && !codesKeepingLeadingZero.contains(countryDigits) {
      subscriber = subscriber.dropFirst()
    }
    return try validateE164("+" + countryDigits + subscriber)
  }

  private static func invalid(_ reason: String) -> UserBackendError {
    UserBackendError(.invalidInput(field: "phoneNumber", reason: reason))
  }
}

extension String {
  fileprivate func trimmingWhitespace() -> Substring {
    var view = Substring(self)
    while let first = view.first, first.isWhitespace { view = view.dropFirst() }
    while let last = view.last, last.isWhitespace { view = view.dropLast() }
    return view
  }
}
