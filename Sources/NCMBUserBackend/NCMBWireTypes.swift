import Foundation
import UserBackendKit

// One Codable request/response pair per endpoint of the NCMB user API, following
// `docs/wire/ncmb.md` §3 ("User endpoints"). Field names are the wire names.
// Bodies are encoded with sorted keys so the bytes are deterministic.

/// `POST /2013-09-01/users` with a password: sign-up (`docs/wire/ncmb.md` §3, "Sign up (ID/PW)").
/// Optional fields are left out of the JSON when `nil`.
struct NCMBSignUpRequest: Codable, Sendable, Hashable {
  /// The user name; an email identifier is sent here too.
  var userName: String
  /// The password.
  var password: String
  /// The mail address, for an email identifier.
  var mailAddress: String?

  /// A sign-up body.
  init(userName: String, password: String, mailAddress: String? = nil) {
    self.userName = userName
    self.password = password
    self.mailAddress = mailAddress
  }
}

/// `POST /2013-09-01/users` with `authData`: anonymous sign-in and identity-provider
/// sign-up / sign-in (`docs/wire/ncmb.md` §3, "Anonymous login", "SNS sign-up/login").
struct NCMBAuthDataSignUpRequest: Codable, Sendable, Hashable {
  /// The provider entries; exactly one is set.
  var authData: NCMBAuthData

  /// A body for `authData`.
  init(authData: NCMBAuthData) { self.authData = authData }
}

/// The `authData` object of a request (`docs/wire/ncmb.md` §3, "authData shapes").
struct NCMBAuthData: Codable, Sendable, Hashable {
  /// `authData.anonymous`.
  var anonymous: Anonymous?
  /// `authData.apple`.
  var apple: Apple?

  /// `{"id": "<UUID>"}`: an anonymous identity.
  struct Anonymous: Codable, Sendable, Hashable {
    /// A UUID string chosen by the client.
    var id: String
    /// An entry.
    init(id: String) { self.id = id }
  }

  /// `{"id", "access_token", "client_id"}`: Sign in with Apple.
  struct Apple: Codable, Sendable, Hashable {
    /// The Apple user identifier (the ID token's `sub` claim).
    var id: String
    /// Apple's authorization code, which the service redeems with Apple (wire name
    /// `access_token`; not the ID token).
    var accessToken: String
    /// The App ID / bundle identifier, when known.
    var clientID: String?

    enum CodingKeys: String, CodingKey {
      case id
      case accessToken = "access_token"
      case clientID = "client_id"
    }

    /// An entry.
    init(id: String, accessToken: String, clientID: String?) {
      self.id = id
      self.accessToken = accessToken
      self.clientID = clientID
    }
  }

  /// An `authData` value with the given entries.
  init(anonymous: Anonymous? = nil, apple: Apple? = nil) {
    self.anonymous = anonymous
    self.apple = apple
  }
}

/// A user object as the user endpoints answer it: sign-up (201), login (200), `authData`
/// sign-up (201 new / 200 existing) and `GET /2013-09-01/users/{objectId}`
/// (`docs/wire/ncmb.md` §3).
/// Unknown fields are ignored; so are the profile fields (`mailAddressConfirm`,
/// `displayName`, `photoURL`) when they have another JSON type than expected, as any
/// client may have stored anything in them.
struct NCMBUserResponse: Codable, Sendable, Hashable {
  /// The user ID.
  var objectId: String
  /// The user name.
  var userName: String?
  /// The mail address, or `nil` / JSON `null`.
  var mailAddress: String?
  /// Whether the answer has the `mailAddress` member (a string or `null`): an explicit
  /// `null` means the account has no mail address; an absent member says nothing
  /// (``NCMBUserMapping/user(from:hasPasswordIdentity:sentUserName:sentMailAddress:)``).
  /// Not encoded.
  var hasMailAddressMember = false
  /// Whether the mail address is confirmed, when the answer says.
  var mailAddressConfirm: Bool?
  /// The session token (absent from a fetch by another user).
  var sessionToken: String?
  /// `createDate`, ISO 8601 text.
  var createDate: String?
  /// `updateDate`, ISO 8601 text.
  var updateDate: String?
  /// The linked `authData` providers, or `nil` for JSON `null` / absent.
  var authData: NCMBAuthDataKeys?
  /// The custom user field `displayName` this adapter's ``NCMBUserBackend/updateProfile(displayName:photoURL:)`` writes.
  var displayName: String?
  /// The custom user field `photoURL` this adapter's ``NCMBUserBackend/updateProfile(displayName:photoURL:)`` writes.
  var photoURL: String?

  /// A user object.
  init(
    objectId: String, userName: String? = nil, mailAddress: String? = nil,
    mailAddressConfirm: Bool? = nil, sessionToken: String? = nil, createDate: String? = nil,
    updateDate: String? = nil, authData: NCMBAuthDataKeys? = nil, displayName: String? = nil,
    photoURL: String? = nil
  ) {
    self.objectId = objectId
    self.userName = userName
    self.mailAddress = mailAddress
    hasMailAddressMember = mailAddress != nil
    self.mailAddressConfirm = mailAddressConfirm
    self.sessionToken = sessionToken
    self.createDate = createDate
    self.updateDate = updateDate
    self.authData = authData
    self.displayName = displayName
    self.photoURL = photoURL
  }

  private enum CodingKeys: String, CodingKey {
    case objectId, userName, mailAddress, mailAddressConfirm, sessionToken, createDate
    case updateDate, authData, displayName, photoURL
  }

  /// Decodes the fields; the protocol fields strictly, the profile fields leniently.
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    objectId = try container.decode(String.self, forKey: .objectId)
    userName = try container.decodeIfPresent(String.self, forKey: .userName)
    mailAddress = try container.decodeIfPresent(String.self, forKey: .mailAddress)
    hasMailAddressMember = container.contains(.mailAddress)
    sessionToken = try container.decodeIfPresent(String.self, forKey: .sessionToken)
    createDate = try container.decodeIfPresent(String.self, forKey: .createDate)
    updateDate = try container.decodeIfPresent(String.self, forKey: .updateDate)
    authData = try container.decodeIfPresent(NCMBAuthDataKeys.self, forKey: .authData)
    mailAddressConfirm = try? container.decodeIfPresent(Bool.self, forKey: .mailAddressConfirm)
    displayName = try? container.decodeIfPresent(String.self, forKey: .displayName)
    photoURL = try? container.decodeIfPresent(String.self, forKey: .photoURL)
  }
}

/// A JSON object member name known only at run time (an `authData` provider, the
/// identifying field of a login).
struct NCMBWireKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// The keys of a response's `authData` object whose value is not `null` (`"anonymous"`,
/// `"apple"`, …); the entries' contents are not kept. Encodes as `{key: {}}`.
struct NCMBAuthDataKeys: Codable, Sendable, Hashable {
  /// The linked provider keys, sorted.
  var keys: [String]

  /// A value with `keys` (stored sorted).
  init(keys: [String]) { self.keys = keys.sorted() }

  /// Reads an object; `null` entries are not linked.
  /// - Throws: `DecodingError` when `authData` is not an object.
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: NCMBWireKey.self)
    keys = try container.allKeys.filter { try !container.decodeNil(forKey: $0) }
      .map(\.stringValue).sorted()
  }

  /// Writes `{key: {}}` for every key.
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: NCMBWireKey.self)
    for key in keys {
      _ = container.nestedContainer(
        keyedBy: NCMBWireKey.self, forKey: NCMBWireKey(stringValue: key))
    }
  }
}

/// `PUT /2013-09-01/users/{objectId}` body: the fields to change; `nil` fields are left
/// out, a removed profile field is sent as JSON `null` (`docs/wire/ncmb.md` §3, "Update
/// user").
struct NCMBUpdateUserRequest: Encodable, Sendable, Hashable {
  /// A new user name.
  var userName: String?
  /// A new mail address.
  var mailAddress: String?
  /// A new password.
  var password: String?
  /// The custom field `displayName`.
  var displayName: ProfileFieldChange = .keep
  /// The custom field `photoURL`.
  var photoURL: ProfileFieldChange = .keep

  enum CodingKeys: String, CodingKey {
    case userName, mailAddress, password, displayName, photoURL
  }

  /// Writes the set fields; `.remove` as `null`.
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(userName, forKey: .userName)
    try container.encodeIfPresent(mailAddress, forKey: .mailAddress)
    try container.encodeIfPresent(password, forKey: .password)
    for (change, key) in [(displayName, CodingKeys.displayName), (photoURL, .photoURL)] {
      switch change {
      case .keep: break
      case .remove: try container.encodeNil(forKey: key)
      case .set(let value): try container.encode(value, forKey: key)
      }
    }
  }
}

/// The answer to `PUT /2013-09-01/users/{objectId}`: `{"updateDate": "…"}` (200 or 201).
struct NCMBUpdateUserResponse: Codable, Sendable, Hashable {
  /// `updateDate`, ISO 8601 text.
  var updateDate: String?
  /// `objectId`, which the service does not send; read only to refuse an answer about
  /// another user.
  var objectId: String?
  /// A value.
  init(updateDate: String? = nil, objectId: String? = nil) {
    self.updateDate = updateDate
    self.objectId = objectId
  }
}

/// `POST /2013-09-01/requestPasswordReset` body (`docs/wire/ncmb.md` §3, "Password reset mail").
struct NCMBPasswordResetRequest: Codable, Sendable, Hashable {
  /// The address to send the reset mail to.
  var mailAddress: String
  /// A body.
  init(mailAddress: String) { self.mailAddress = mailAddress }
}

/// The answer to `POST /2013-09-01/requestPasswordReset`: `{"createDate": "…"}` (201).
struct NCMBPasswordResetResponse: Codable, Sendable, Hashable {
  /// `createDate`, ISO 8601 text.
  var createDate: String?
  /// A value.
  init(createDate: String? = nil) { self.createDate = createDate }
}

/// The error body every NCMB endpoint sends: `{"code": "E401002", "error": "…"}`
/// (`docs/wire/ncmb.md` §4, "Errors").
struct NCMBErrorBody: Codable, Sendable, Hashable {
  /// The code, `E` + six digits; the first three are the HTTP status.
  var code: String
  /// The English message, e.g. `"password is empty."`.
  var error: String?

  /// An error body.
  init(code: String, error: String?) {
    self.code = code
    self.error = error
  }
}
