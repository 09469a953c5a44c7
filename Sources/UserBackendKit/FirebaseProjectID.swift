import Foundation

/// The rule for a Firebase (Google Cloud) project ID: 6 to 30 characters, lower-case ASCII
/// letters, digits and hyphens, starting with a letter and not ending with a hyphen (the
/// Google Cloud "Creating and managing projects" rule). Emulator projects (`demo-…`
/// IDs) follow the same rule.
///
/// Checked before any request, so an ID that could never name a project is refused up
/// front and each valid ID names exactly one session file. Lives in the port so that the
/// Firebase adapter, the emulator and `FirebaseTokenVerification` (which may depend on
/// nothing but the port and BackendHTTP) share one rule.
package enum FirebaseProjectID {
  /// The allowed lengths.
  package static let lengths = 6...30

  /// The reason a value breaks the rule, or `nil` when it is a valid project ID. The
  /// reason never contains the value.
  package static func problem(with projectID: String) -> String? {
    let scalars = Array(projectID.unicodeScalars)
    guard lengths.contains(scalars.count) else {
      return "must be \(lengths.lowerBound) to \(lengths.upperBound) characters long "
        + "(it has \(projectID.count)), such as my-project-1234"
    }
    guard scalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" })
    else {
      return "may contain only lower-case ASCII letters, digits and hyphens, "
        + "such as my-project-1234"
    }
    guard let first = scalars.first, ("a"..."z").contains(first) else {
      return "must start with a lower-case letter"
    }
    guard scalars.last != "-" else { return "must not end with a hyphen" }
    return nil
  }
}
