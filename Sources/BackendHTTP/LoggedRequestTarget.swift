/// The path and query of a request as logs show them (`--verbose` records, the emulator's
/// request list): query values replaced by `<redacted>` with their names kept
/// (`?key=<redacted>`), and everything a log cannot read as `name=value` redacted whole,
/// since it could be a secret: a bare query item (`?SECRET` becomes `?<redacted>`) and a
/// path segment's parameters (`/x;key=SECRET` becomes `/x;<redacted>`).
///
/// The rest of the path is kept: none of the services puts a secret in a path segment.
public enum LoggedRequestTarget {
  /// The text that stands for a redacted value.
  public static let placeholder = "<redacted>"

  /// `percentEncodedPath` with the parameters of each segment (from its first `;`)
  /// replaced by ``placeholder``.
  public static func path(_ percentEncodedPath: String) -> String {
    guard percentEncodedPath.contains(";") else { return percentEncodedPath }
    return percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false).map {
      segment in
      guard let semicolon = segment.firstIndex(of: ";") else { return String(segment) }
      return segment[...semicolon] + placeholder
    }.joined(separator: "/")
  }

  /// `percentEncodedQuery` (without `?`) with every value replaced by ``placeholder``,
  /// names kept; an item without `=` is replaced whole. Empty items stay empty.
  public static func query(_ percentEncodedQuery: String) -> String {
    percentEncodedQuery.split(separator: "&", omittingEmptySubsequences: false).map { item in
      if item.isEmpty { return "" }
      guard let equals = item.firstIndex(of: "=") else { return placeholder }
      return item[..<equals] + "=" + placeholder
    }.joined(separator: "&")
  }
}
