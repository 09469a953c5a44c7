import BackendHTTP
import Foundation

/// The parts of a request URL that may hold a secret no name announces, read with the rule
/// logs use (`LoggedRequestTarget`, behind `--verbose` and the emulator's request list):
/// a path segment's parameters (everything after its first `;`) and a query item without
/// `=`. Logs replace them with `<redacted>`; cassettes replace them with aliases
/// (``Redactor``: record, import, replay) and `cassette lint` reports one that is not an
/// alias (``DecodedLeakScan``). The parts are found by asking the log rule itself, so the
/// two can never disagree about what they hide.
enum URLSecretParts {
  /// The parameters of one path segment (after its first `;`, possibly empty), or `nil`.
  static func segmentParameters(_ segment: Substring) -> Substring? {
    let logged = LoggedRequestTarget.path(String(segment))
    guard logged != segment, logged.hasSuffix(LoggedRequestTarget.placeholder) else {
      return nil
    }
    let kept = logged.utf8.count - LoggedRequestTarget.placeholder.utf8.count
    let start = segment.utf8.index(segment.startIndex, offsetBy: kept)
    return segment[start...]
  }

  /// Whether a query item (between two `&`) is one logs redact whole: not empty, no `=`.
  static func isBareQueryItem(_ item: Substring) -> Bool {
    !item.isEmpty && LoggedRequestTarget.query(String(item)) == LoggedRequestTarget.placeholder
  }
}
