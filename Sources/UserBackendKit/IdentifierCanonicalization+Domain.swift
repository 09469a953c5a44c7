extension IdentifierCanonicalization {
  /// The longest domain, in ASCII characters (RFC 1035 names, without a trailing dot).
  public static let maximumDomainLength = 253
  /// The longest domain label, in ASCII characters (RFC 1035).
  public static let maximumDomainLabelLength = 63

  /// Whether `domain`, an email domain in its ASCII form (lower case, after IDNA), is a
  /// host name every backend can deliver to: labels separated by `.`, each 1 to
  /// ``maximumDomainLabelLength`` letters, digits and hyphens, not starting or ending with
  /// a hyphen (RFC 1123 §2.1), at most ``maximumDomainLength`` characters in all.
  ///
  /// The same rule holds for ASCII and internationalized domains (their IDNA form is
  /// checked), so `a@-example.com` and `a@-bücher.example` are both refused.
  ///
  /// Decisions:
  /// - **A single label** (`user@localhost`) is accepted: RFC 5321 allows it, Firebase
  ///   documents no rule against it, and local test setups use such names.
  /// - **A trailing dot** (`user@example.com.`) is refused: it is the same host as
  ///   `example.com`, so accepting it would give one mailbox two spellings (two accounts
  ///   on a backend that compares text), and mail software does not expect it in an
  ///   address. An empty label anywhere (`example..com`, `.example.com`) is refused.
  /// - **An address literal** (`user@[127.0.0.1]`) is refused: it is no host name, and
  ///   no backend here delivers to one.
  public static func isUsableDomain(_ domain: String) -> Bool {
    let bytes = domain.utf8
    guard !bytes.isEmpty, bytes.count <= maximumDomainLength else { return false }
    var labelLength = 0
    var previous: UInt8 = UInt8(ascii: ".")
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "."):
        guard labelLength > 0, previous != UInt8(ascii: "-") else { return false }
        labelLength = 0
      case UInt8(ascii: "-"):
        guard labelLength > 0 else { return false }
        labelLength += 1
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        labelLength += 1
      default:
        return false
      }
      guard labelLength <= maximumDomainLabelLength else { return false }
      previous = byte
    }
    return labelLength > 0 && previous != UInt8(ascii: "-")
  }
}
