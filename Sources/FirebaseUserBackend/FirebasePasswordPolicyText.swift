import Foundation
import UserBackendKit

/// Reads the password rules out of a Firebase error detail.
///
/// Firebase lists the broken rules of a project's password policy as
/// `Missing password requirements: [Password must contain at least 12 characters,
/// Password may contain at most 40 characters, Password must contain a lower case
/// character, …]`, and the default policy says `Password should be at least 6
/// characters`. Each item is classified by its words; an item that is not understood is
/// kept verbatim, and nothing is assumed that the text does not say.
enum FirebasePasswordPolicyText {
  /// The requirements stated in `detail`, or `nil` when it states none.
  static func requirements(in detail: String?) -> PasswordRequirements? {
    guard let detail = detail?.trimmingCharacters(in: .whitespacesAndNewlines), !detail.isEmpty
    else { return nil }
    var items = [detail]
    if let open = detail.firstIndex(of: "["), let close = detail.lastIndex(of: "]"),
      open < close
    {
      items = detail[detail.index(after: open)..<close].split(separator: ",").map(String.init)
    }
    var result = PasswordRequirements()
    for item in items {
      let rule = item.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !rule.isEmpty else { continue }
      classify(rule, into: &result)
    }
    return result.isEmpty ? nil : result
  }

  private static func classify(_ rule: String, into result: inout PasswordRequirements) {
    let lowered = rule.lowercased()
    var characterClass: PasswordRequirements.CharacterClass?
    if lowered.contains("non-alphanumeric") || lowered.contains("non alphanumeric")
      || lowered.contains("special character") || lowered.contains("symbol")
    {
      characterClass = .nonAlphanumeric
    } else if lowered.contains("lower case") || lowered.contains("lowercase") {
      characterClass = .lowercase
    } else if lowered.contains("upper case") || lowered.contains("uppercase") {
      characterClass = .uppercase
    } else if lowered.contains("numeric") || lowered.contains("digit") {
      characterClass = .digit
    }
    if let characterClass {
      if !result.characterClasses.contains(characterClass) {
        result.characterClasses.append(characterClass)
      }
    } else if let minimum = number(after: "at least ", in: lowered), lowered.contains("character") {
      result.minimumLength = minimum
    } else if let maximum = number(after: "at most ", in: lowered), lowered.contains("character") {
      result.maximumLength = maximum
    } else {
      result.unrecognized.append(rule)
    }
  }

  /// The whole number right after `marker`, e.g. 12 in `"at least 12 characters"`.
  private static func number(after marker: String, in text: String) -> Int? {
    guard let range = text.range(of: marker) else { return nil }
    let digits = text[range.upperBound...].prefix(while: { $0.isASCII && $0.isNumber })
    guard !digits.isEmpty, digits.count <= 6 else { return nil }
    return Int(digits)
  }
}
