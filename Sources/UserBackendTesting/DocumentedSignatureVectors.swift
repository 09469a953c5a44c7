import BackendHTTP
import Foundation
import NCMBSigning
import NCMBUserBackend

/// Published NCMB request signatures (the documentation's example and the SDKs' own test
/// vectors), kept as plain data in `Recordings/documentation/ncmb-signature-vectors.json`
/// and checked by `baas verify`.
///
/// The client, the emulator, the replay check and the recording fixtures all sign with
/// one `NCMBSignature`, so they agree with each other whatever it computes; only answers
/// computed elsewhere show that it still signs as the service does.
public struct DocumentedSignatureVectors: Sendable, Hashable, Codable {
  /// One published request and its signature.
  public struct Vector: Sendable, Hashable, Codable {
    /// A short name for reports.
    public var name: String
    /// Where it was published.
    public var source: String
    /// `GET`, `POST`, ...
    public var method: String
    /// The request URL with its query percent-encoded as on the wire.
    public var url: String
    /// The application key.
    public var applicationKey: String
    /// The client key (the HMAC key).
    public var clientKey: String
    /// The `X-NCMB-Timestamp` value.
    public var timestamp: String
    /// The published `X-NCMB-Signature`.
    public var signature: String
  }

  /// The file name inside `Recordings/documentation/`.
  public static let fileName = "ncmb-signature-vectors.json"

  /// What the file is.
  public var description: String
  /// The vectors.
  public var vectors: [Vector]

  /// Reads the file.
  /// - Throws: the read error, or `DecodingError` for a malformed file.
  public static func load(file url: URL) throws -> DocumentedSignatureVectors {
    try JSONDecoder().decode(Self.self, from: Data(contentsOf: url))
  }

  /// For each vector, `nil` when `NCMBSignature` reproduces the published signature, else
  /// the problem (never the keys).
  public func check() -> [(name: String, problem: String?)] {
    vectors.map { vector in
      guard let url = URL(string: vector.url) else {
        return (vector.name, "the URL does not parse")
      }
      let request = HTTPRequest(method: HTTPMethod(rawValue: vector.method), url: url)
      let computed = NCMBSignature.sign(
        request: request, applicationKey: vector.applicationKey, clientKey: vector.clientKey,
        timestamp: vector.timestamp)
      return (
        vector.name,
        computed == vector.signature
          ? nil : "NCMBSignature computes \(computed), published \(vector.signature)"
      )
    }
  }
}
