import UserBackendKit

// `displayName` and `photoURL`, the user fields the adapters read as the profile, under
// the client library's rule (``EmulatorProfileRule``).
extension NCMBHandler {
  /// The profile fields and their rules.
  static let profileFields: [(name: String, field: EmulatorProfileRule.Field)] = [
    ("displayName", .displayName), ("photoURL", .photoURL),
  ]

  /// Checks the profile fields a write sets: a string the rule refuses is `E400004
  /// {field} is invalid format.` (`E400009` when too long); a type other than a string or
  /// `null` is `E400002 {field} is invalid.`; `""` becomes `null` (removed, as the adapter
  /// sends it); an accepted display name is stored in NFC.
  static func checkProfileFields(_ write: inout UserFieldWrite) throws(NCMBError) {
    for (name, field) in profileFields {
      guard let value = write.setting[name] else { continue }
      switch value {
      case .null:
        continue
      case .string(let text):
        do throws(EmulatorProfileRule.Refusal) {
          let change = try EmulatorProfileRule.change(text, for: field)
          write.setting[name] = change.value.map(DocumentValue.string) ?? .null
        } catch {
          switch error {
          case .tooLong(let maximum): throw .size(name, maximum: maximum)
          case .invalid: throw .invalidFormat(name)
          }
        }
      default:
        throw .wrongType(name)
      }
    }
  }
}
