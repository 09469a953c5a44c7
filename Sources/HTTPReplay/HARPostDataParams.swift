import BackendHTTP
import Foundation

/// One of `postData.params` (HAR 1.2): a posted parameter of a URL-encoded form, or a part
/// of a multipart form (`fileName`, `contentType` for a file).
public struct HARParam: Codable, Sendable, Hashable {
  /// The parameter's name.
  public var name: String
  /// Its value (a file's content, when the export kept it), `""` when absent.
  public var value: String
  /// The name of a posted file.
  public var fileName: String?
  /// The content type of a posted file.
  public var contentType: String?

  /// A parameter.
  public init(name: String, value: String, fileName: String? = nil, contentType: String? = nil) {
    self.name = name
    self.value = value
    self.fileName = fileName
    self.contentType = contentType
  }

  /// Decodes leniently (a missing name or value is empty).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    name = try c.decodeIfPresent(String.self, forKey: .name) ?? ""
    value = try c.decodeIfPresent(String.self, forKey: .value) ?? ""
    fileName = try c.decodeIfPresent(String.self, forKey: .fileName)
    contentType = try c.decodeIfPresent(String.self, forKey: .contentType)
  }
}

extension HARPostData {
  /// Why `params` cannot stand for a body.
  struct ParamsProblem: Error, CustomStringConvertible {
    var description: String
  }

  /// The body `params` describe, and the media type to declare for it, read by
  /// `mediaType` (the request's `Content-Type`, else `mimeType`: ``BodyType``):
  /// - `application/x-www-form-urlencoded`, or no type at all (HAR 1.2: `params` are
  ///   "URL encoded parameters"): `name=value` pairs joined by `&`, declared as a form;
  /// - `multipart/form-data` with a `boundary`: one part per parameter (RFC 7578;
  ///   `filename` and `Content-Type` for files; `"`, CR and LF in names percent-encoded as
  ///   browsers do);
  /// - anything else (JSON, text): refused. The parameters do not say what such a body
  ///   was, and reading them as a form would give replay a body of another type.
  /// - Throws: ``ParamsProblem`` for another type, a multipart type without a boundary, a
  ///   value that holds the boundary or a file type with a line break.
  static func body(
    params: [HARParam], mediaType: String
  ) throws(ParamsProblem) -> (body: Data, mediaType: String) {
    let essence = (mediaType.split(separator: ";").first ?? "")
      .trimmingCharacters(in: .whitespaces).lowercased()
    switch essence {
    case "", "application/x-www-form-urlencoded":
      let pairs = params.map {
        FormURLEncoding.escape($0.name) + "=" + FormURLEncoding.escape($0.value)
      }
      return (
        Data(pairs.joined(separator: "&").utf8),
        essence.isEmpty ? "application/x-www-form-urlencoded" : mediaType
      )
    case "multipart/form-data":
      guard let boundary = MultipartFormData.boundary(contentType: mediaType) else {
        throw ParamsProblem(description: "a multipart/form-data type without a boundary")
      }
      return (try multipart(params, boundary: boundary), mediaType)
    default:
      throw ParamsProblem(
        description:
          "params describe a URL-encoded or multipart form (HAR 1.2), not a body of this "
          + "media type; export the request with postData.text")
    }
  }

  /// `params` as a multipart body framed by `boundary`.
  private static func multipart(
    _ params: [HARParam], boundary: String
  ) throws(ParamsProblem) -> Data {
    func quoted(_ text: String) -> String {
      "\""
        + text.replacingOccurrences(of: "\"", with: "%22")
        .replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
        + "\""
    }
    var text = ""
    for param in params {
      guard !param.value.contains("--" + boundary) else {
        throw ParamsProblem(description: "a value holds the multipart boundary")
      }
      var disposition = "Content-Disposition: form-data; name=" + quoted(param.name)
      if let fileName = param.fileName { disposition += "; filename=" + quoted(fileName) }
      text += "--\(boundary)\r\n\(disposition)\r\n"
      if let type = param.contentType, !type.isEmpty {
        guard !type.contains(where: { $0 == "\r" || $0 == "\n" }) else {
          throw ParamsProblem(description: "a file's contentType holds a line break")
        }
        text += "Content-Type: \(type)\r\n"
      }
      text += "\r\n\(param.value)\r\n"
    }
    text += "--\(boundary)--\r\n"
    return Data(text.utf8)
  }
}
