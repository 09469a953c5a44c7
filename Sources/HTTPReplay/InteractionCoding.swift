import BackendHTTP
import Foundation

/// One recorded request and its response, as values.
public struct Interaction: Sendable, Hashable {
  /// The (redacted) request.
  public var request: HTTPRequest
  /// The (redacted) response.
  public var response: HTTPResponse

  /// An interaction.
  public init(request: HTTPRequest, response: HTTPResponse) {
    self.request = request
    self.response = response
  }
}

extension HAREntry {
  /// The HAR entry for `interaction`: JSON bodies as sorted pretty text, other UTF-8 as
  /// text, the rest base64; no cookies; durations 0 so re-recordings diff only in content.
  public init(_ interaction: Interaction, startedAt: Date, order: Int?) {
    let request = interaction.request
    let response = interaction.response
    let query = FormURLEncoding.pairs(request.rawQuery ?? "", plusIsSpace: false)
    let harRequest = HARRequest(
      method: request.method.rawValue, url: request.url.absoluteString,
      headers: Self.nameValues(request.headerFields),
      queryString: query.map { HARNameValue(name: $0.0, value: $0.1) },
      postData: Self.postData(for: request))
    let mimeType = response.headerFields["Content-Type"] ?? ""
    let stored = BodyCoding.storedText(response.body, mediaType: mimeType)
    let harResponse = HARResponse(
      status: response.status, statusText: HTTPStatusText.text(for: response.status),
      headers: Self.nameValues(response.headerFields),
      content: HARContent(
        size: response.body.count, mimeType: mimeType, text: stored.text,
        encoding: stored.encoding),
      redirectURL: response.headerFields["Location"] ?? "")
    self.init(
      startedDateTime: ISO8601.string(from: startedAt), request: harRequest,
      response: harResponse, order: order)
  }

  /// The `postData` stored for `request`'s body (``BodyCoding``), `nil` for no body.
  static func postData(for request: HTTPRequest) -> HARPostData? {
    guard !request.body.isEmpty else { return nil }
    let mimeType = request.headerFields["Content-Type"] ?? "application/octet-stream"
    let stored = BodyCoding.storedText(request.body, mediaType: mimeType)
    return HARPostData(mimeType: mimeType, text: stored.text, encoding: stored.encoding)
  }

  /// Header fields as HAR name/value pairs, in order.
  static func nameValues(_ fields: HTTPFields) -> [HARNameValue] {
    fields.map { HARNameValue(name: $0.name, value: $0.value) }
  }

  /// The request as a value. HTTP/2 pseudo-header fields (`:authority`) are skipped.
  /// Without `text`, `params` become the body their media type says
  /// (``HARPostData/body(params:mediaType:)``: a URL-encoded form, or multipart). A body
  /// without a `Content-Type` field gets `postData.mimeType` as one (``BodyType``: the type
  /// the file declares is what import, lint, redaction and replay read it as).
  /// - Throws: ``CassetteError/malformed(field:reason:)`` for a bad URL or base64 body, or
  ///   `params` under a media type that is neither a form nor multipart.
  public func httpRequest(index: Int) throws -> HTTPRequest {
    guard let url = URL(string: request.url), url.scheme != nil, url.host != nil else {
      throw CassetteError.malformed(
        field: CassetteLocation.entry(index, "request.url"), reason: "not an absolute URL")
    }
    var fields = HTTPFields()
    for header in request.headers where !header.name.hasPrefix(":") {
      fields.append(name: header.name, value: header.value)
    }
    var body = Data()
    if let postData = request.postData {
      var declared = postData.mimeType
      if postData.text == nil, let params = postData.params {
        do throws(HARPostData.ParamsProblem) {
          (body, declared) = try HARPostData.body(
            params: params,
            mediaType: BodyType.mediaType(header: fields["Content-Type"], declared: declared))
        } catch {
          throw CassetteError.malformed(
            field: CassetteLocation.entry(index, "request.postData.params"),
            reason: error.description)
        }
      } else if let data = BodyCoding.data(text: postData.text, encoding: postData.encoding) {
        body = data
      } else {
        throw CassetteError.malformed(
          field: CassetteLocation.entry(index, "request.postData.text"),
          reason: "not valid base64")
      }
      fields.declaring(declared, for: body)
    }
    return HTTPRequest(
      method: HTTPMethod(rawValue: request.method), url: url, headerFields: fields, body: body)
  }

  /// The response as a value; a body without a `Content-Type` field gets
  /// `content.mimeType` as one (``BodyType``).
  /// - Throws: ``CassetteError/malformed(field:reason:)`` for a bad base64 body.
  public func httpResponse(index: Int) throws -> HTTPResponse {
    var fields = HTTPFields()
    for header in response.headers where !header.name.hasPrefix(":") {
      fields.append(name: header.name, value: header.value)
    }
    guard
      let body = BodyCoding.data(text: response.content.text, encoding: response.content.encoding)
    else {
      throw CassetteError.malformed(
        field: CassetteLocation.entry(index, "response.content.text"),
        reason: "not valid base64")
    }
    fields.declaring(response.content.mimeType, for: body)
    return HTTPResponse(status: response.status, headerFields: fields, body: body)
  }
}

extension HTTPFields {
  /// Adds `Content-Type: declared` (a HAR `mimeType`) when `body` is not empty and no
  /// non-blank `Content-Type` field says what it is (``BodyType/mediaType(header:declared:)``).
  fileprivate mutating func declaring(_ declared: String, for body: Data) {
    let header = self["Content-Type"]
    guard !body.isEmpty, !declared.isEmpty,
      BodyType.mediaType(header: header, declared: declared) != header
    else { return }
    self["Content-Type"] = declared
  }
}

/// Reason phrases for `statusText`.
enum HTTPStatusText {
  static func text(for status: Int) -> String {
    switch status {
    case 200: "OK"
    case 201: "Created"
    case 202: "Accepted"
    case 204: "No Content"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 304: "Not Modified"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 409: "Conflict"
    case 429: "Too Many Requests"
    case 500: "Internal Server Error"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    default: ""
    }
  }
}
