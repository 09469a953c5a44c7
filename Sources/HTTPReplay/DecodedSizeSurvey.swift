import Foundation

/// One pass over the bodies of a parsed HAR file with a ``DecodedSizeBudget``, before
/// `cassette lint` scans anything: which bodies decode past the 10 MiB cap (refused; the
/// bytes decoded before each refusal are taken from the file's 64 MiB like any other),
/// and where the file's bodies pass 64 MiB in total. The pass stops there: later bodies
/// are not decoded. Everything it finds is reported as one finding (the first body, and
/// how many more), since a file of 200 such bodies is one problem, not 200.
struct DecodedSizeSurvey {
  /// Bodies refused for decoding past the per-body cap, in file order: the field
  /// (`log.entries[3].response.content`) and why.
  private(set) var refused: [(field: String, reason: String)] = []
  /// The body with which the file's bodies passed ``DecodedSizeBudget/perFile``, or `nil`
  /// when all fit.
  private(set) var overrun: String?
  /// Non-empty bodies after ``overrun``: neither decoded nor counted, so not checked.
  private(set) var undecoded = 0
  /// Bytes decoded, those of refused bodies included (``DecodedSizeBudget/spent``).
  private(set) var decodedBytes = 0

  /// Counts the bodies of the parsed HAR `root` (requests' `postData`, responses'
  /// `content`; base64 and content codings undone), in file order.
  init(_ root: Any) {
    let log = (root as? [String: Any])?["log"] as? [String: Any]
    var budget = DecodedSizeBudget()
    for (index, item) in (log?["entries"] as? [Any] ?? []).enumerated() {
      let entry = item as? [String: Any]
      let request = entry?["request"] as? [String: Any]
      let response = entry?["response"] as? [String: Any]
      let postData = request?["postData"] as? [String: Any]
      let content = response?["content"] as? [String: Any]
      let bodies: [(String, [String: Any]?, String?, [Any]?)] = [
        (
          "request.postData", postData,
          (postData?["_encoding"] ?? postData?["encoding"]) as? String,
          request?["headers"] as? [Any]
        ),
        (
          "response.content", content, content?["encoding"] as? String,
          response?["headers"] as? [Any]
        ),
      ]
      for (place, body, encoding, headers) in bodies {
        let text = body?["text"] as? String
        if overrun != nil {
          if let text, !text.isEmpty { undecoded += 1 }
          continue
        }
        let pairs = (headers ?? []).compactMap { item -> HARNameValue? in
          guard let pair = item as? [String: Any], let name = pair["name"] as? String else {
            return nil
          }
          return HARNameValue(name: name, value: pair["value"] as? String ?? "")
        }
        let field = CassetteLocation.entry(index, place)
        do throws(ContentCoding.Failure) {
          try budget.count(text: text, encoding: encoding, headers: pairs)
        } catch {
          if case .fileTooLarge = error {
            overrun = field
          } else {
            refused.append((field, error.description))
          }
        }
      }
    }
    decodedBytes = budget.spent
  }

  /// The leak scan's names for the refused bodies' text (`….content.text`): it skips them,
  /// so they are neither decoded again nor reported once per entry.
  var refusedTexts: Set<String> { Set(refused.map { $0.field + ".text" }) }

  /// The one finding for all of it, at the first refused body (else at ``overrun``);
  /// `nil` when every body fits.
  var finding: (location: String, message: String)? {
    guard let location = refused.first?.field ?? overrun else { return nil }
    var parts: [String] = []
    if let first = refused.first {
      var text = first.reason
      let more = refused.count - 1
      if more > 0 {
        text +=
          "; so do \(more) more bod\(more == 1 ? "y" : "ies") (the last "
          + "\(refused[refused.count - 1].field))"
      }
      parts.append(text + (overrun == nil ? "; they cannot be checked" : ""))
    }
    if let overrun {
      parts.append(
        (refused.isEmpty
          ? "" : "counting the bytes decoded for them, the file passes its budget at \(overrun): ")
          + ContentCoding.Failure.fileTooLarge.description
          + (undecoded > 0
            ? " (\(undecoded) later bod\(undecoded == 1 ? "y was" : "ies were") not checked)" : ""))
    }
    return (location, parts.joined(separator: "; "))
  }
}
