import Foundation

/// The checks every document store runs on a write before any request: the adapters
/// (Firestore, NCMB), the fake and the emulator share them, so one bad write fails the
/// same way everywhere.
///
/// The limits are Firestore's: a document of at most ``maximumDocumentSize`` bytes
/// (Firestore's storage size, ``documentSize(userID:fields:)``), field names of 1 to
/// ``maximumFieldNameBytes`` UTF-8 bytes, values nested at most ``maximumDepth`` levels,
/// timestamps between 0001-01-01 and 9999-12-31 UTC. ``DocumentValue/serverTimestamp`` is
/// refused inside arrays (Firestore transforms address fields, not array elements), and an
/// array directly inside an array is refused (Firestore cannot store one; an array inside
/// a map inside an array is fine). The NCMB service stores one; the NCMB adapter still
/// refuses it, so that a document is portable, but the emulator's NCMB wire accepts it as
/// the service does (the `package` checks with `allowingArraysInArrays`).
///
/// **Names: one rule on every backend.** A name is refused when any backend reserves it,
/// so a document written on one backend can be written on every other:
/// - no name at any level (a field or a map key) starts with `__`: Firestore reserves
///   `__…__` and NCMB reads `__type` and `__op` as a value's type and an operation (at the
///   top level of the user object too: `__type` beside `iso` is an NCMB `Date`);
/// - no top-level field is one of ``reservedFieldNames`` (the members of the NCMB user
///   object, which holds the document there, and the NCMB adapter's own).
/// The store the emulator serves both wire protocols from applies the first rule only
/// (its NCMB side keeps the user object's members apart itself).
///
/// Errors are `.invalidInput(field:reason:)` with `field` the value's path:
/// `"fields.<name>"`, `"fields.<name>.<nested name>"`, `"fields.<name>[<index>]"`
/// (an overlong name is shortened in the path), or `"fields"` for the whole document.
public enum DocumentValidation {
  /// The largest document, in bytes of Firestore's storage size: 1 MiB.
  public static let maximumDocumentSize = 1_048_576
  /// The longest field name, in UTF-8 bytes: 1,500.
  public static let maximumFieldNameBytes = 1_500
  /// Top-level names no document may use: the NCMB user object's own members (`objectId`,
  /// `createDate`, `updateDate`, `acl`, `authData`, `sessionToken`, `mailAddressConfirm`,
  /// `userName`, `mailAddress`, `password`, `_id`), the profile fields the NCMB adapter
  /// keeps on it (`displayName`, `photoURL`) and its document markers
  /// (`documentCreateDate`, `documentCreateNonce`). The fake and the Firebase adapter
  /// refuse them too (``validateUpdate(setting:removing:reserved:)`` with this set), so a
  /// document is portable.
  public static let reservedFieldNames: Set<String> = [
    "objectId", "createDate", "updateDate", "acl", "authData", "sessionToken",
    "mailAddressConfirm", "userName", "mailAddress", "password", "_id", "displayName",
    "photoURL", "documentCreateDate", "documentCreateNonce",
  ]
  /// The deepest nesting: a document's own fields are at depth 1, a value inside a map or
  /// array one deeper than the map or array; no value deeper than 20.
  public static let maximumDepth = 20
  /// The earliest timestamp: 0001-01-01T00:00:00Z.
  public static let earliestTimestamp = Date(timeIntervalSince1970: -62_135_596_800)
  /// The latest timestamp, standing for 9999-12-31T23:59:59.999999Z: the last `Date` before
  /// 10000-01-01T00:00:00Z. A `Date` is a `Double` of seconds since 2001, 2^-15 s (about
  /// 31 µs) apart in year 9999, so the `Date` nearest to 23:59:59.999999 is 10000-01-01
  /// itself; this one is the `Date` the last microseconds of 9999 read as
  /// (``DocumentTimestamp/date(microseconds:)``), and it converts back to
  /// 9999-12-31T23:59:59.999999Z.
  public static let latestTimestamp = Date(
    timeIntervalSinceReferenceDate: endReferenceSeconds.nextDown)

  /// 10000-01-01T00:00:00Z in seconds since 2001 (exact as a `Double`): the first instant
  /// out of range.
  static let endReferenceSeconds: Double = 252_423_993_600

  /// Checks the fields of a create (``UserDocumentStore/createDocument(userID:fields:)``).
  ///
  /// - Parameters:
  ///   - fields: the fields to write.
  ///   - reserved: top-level names refused besides the `__` rule: the stores behind
  ///     ``UserDocumentStore`` pass ``reservedFieldNames``.
  /// - Throws: ``UserBackendError`` `.invalidInput(field:reason:)` naming the field.
  public static func validateCreate(
    _ fields: [String: DocumentValue], reserved: Set<String> = []
  ) throws(UserBackendError) {
    try validateUpdate(setting: fields, removing: [], reserved: reserved)
  }

  /// ``validateCreate(_:reserved:)`` for the emulator's NCMB wire, which stores what the
  /// NCMB service stores: with `allowingArraysInArrays`, an array directly inside an array
  /// is accepted (the service keeps `[[1,2]]`); every other rule applies.
  package static func validateCreate(
    _ fields: [String: DocumentValue], reserved: Set<String> = [], allowingArraysInArrays: Bool
  ) throws(UserBackendError) {
    try validateUpdate(
      setting: fields, removing: [], reserved: reserved,
      allowingArraysInArrays: allowingArraysInArrays)
  }

  /// Checks the fields of a merge
  /// (``UserDocumentStore/updateDocument(userID:setting:removing:)``): every set name and
  /// value, every removed name, and that no name is both set and removed.
  ///
  /// Only what the write names is checked, never the fields the document already holds:
  /// a document stored before a name was reserved (`__name__` in an old fake document,
  /// `objectId` in a Firestore document another client wrote) can still be updated, and
  /// such a field can be removed. The name rules apply to names being set; a removed name
  /// needs only to be a name (1 to ``maximumFieldNameBytes`` bytes) and not one of
  /// `unremovable`.
  ///
  /// - Parameters:
  ///   - fields: the fields to set.
  ///   - removing: the top-level fields to remove.
  ///   - reserved: top-level names refused besides the `__` rule (``reservedFieldNames``
  ///     for a ``UserDocumentStore``).
  ///   - unremovable: top-level names a removal may not name: on NCMB, the user object's
  ///     own members (``reservedFieldNames``), which are not document fields there;
  ///     elsewhere none.
  /// - Throws: ``UserBackendError`` `.invalidInput(field:reason:)` naming the field.
  public static func validateUpdate(
    setting fields: [String: DocumentValue], removing: Set<String>,
    reserved: Set<String> = [], unremovable: Set<String> = []
  ) throws(UserBackendError) {
    try validateUpdate(
      setting: fields, removing: removing, reserved: reserved, unremovable: unremovable,
      allowingArraysInArrays: false)
  }

  /// ``validateUpdate(setting:removing:reserved:unremovable:)``; with
  /// `allowingArraysInArrays` (the emulator's NCMB wire only: the service stores them) an
  /// array directly inside an array is accepted.
  package static func validateUpdate(
    setting fields: [String: DocumentValue], removing: Set<String>,
    reserved: Set<String> = [], unremovable: Set<String> = [], allowingArraysInArrays: Bool
  ) throws(UserBackendError) {
    for name in fields.keys.sorted() {
      let path = try checkName(name, parent: "fields", reserved: reserved)
      try checkValue(
        fields[name]!, path: path, depth: 1, insideArray: false,
        arraysInArrays: allowingArraysInArrays)
    }
    for name in removing.sorted() {
      let path = try checkLength(name, parent: "fields")
      if unremovable.contains(name) {
        throw invalid(
          path,
          "is a member of the NCMB user object, not a document field: it cannot be removed")
      }
      if fields[name] != nil {
        throw invalid(path, "is both set and removed")
      }
    }
    guard fieldsSize(fields) <= maximumDocumentSize else {
      throw invalid("fields", "exceed the document limit of \(maximumDocumentSize) bytes")
    }
  }

  /// Checks a whole stored document's size (after a merge, with its name).
  /// - Throws: ``UserBackendError`` `.invalidInput(field: "fields")` past
  ///   ``maximumDocumentSize``.
  public static func validateSize(userID: String, fields: [String: DocumentValue])
    throws(UserBackendError)
  {
    guard documentSize(userID: userID, fields: fields) <= maximumDocumentSize else {
      throw invalid("fields", "exceed the document limit of \(maximumDocumentSize) bytes")
    }
  }

  /// Firestore's storage size of the document `users/{userID}`, in bytes: the name
  /// (each segment's UTF-8 bytes + 1, + 16), the fields (each name's UTF-8 bytes + 1, +
  /// its value's size) and 32 bytes. Values: string UTF-8 bytes + 1, integer, double and
  /// timestamp 8, boolean and null 1, array the sum of its values, map as fields.
  public static func documentSize(userID: String, fields: [String: DocumentValue]) -> Int {
    let name = ("users".utf8.count + 1) + (userID.utf8.count + 1) + 16
    return name + fieldsSize(fields) + 32
  }

  /// The storage size of a set of fields (names and values), in bytes.
  static func fieldsSize(_ fields: [String: DocumentValue]) -> Int {
    fields.reduce(0) { $0 + $1.key.utf8.count + 1 + valueSize($1.value) }
  }

  /// The storage size of one value, in bytes.
  static func valueSize(_ value: DocumentValue) -> Int {
    switch value {
    case .string(let text): text.utf8.count + 1
    case .integer, .double, .timestamp, .serverTimestamp: 8
    case .bool, .null: 1
    case .array(let values): values.reduce(0) { $0 + valueSize($1) }
    case .map(let fields): fieldsSize(fields)
    }
  }

  private static func checkName(_ name: String, parent: String, reserved: Set<String>)
    throws(UserBackendError) -> String
  {
    let path = try checkLength(name, parent: parent)
    // Per code point: `"_" + "_" + U+0301` starts with __ on the wire, though its second
    // Character is not "_".
    guard !name.unicodeScalars.starts(with: "__".unicodeScalars) else {
      throw invalid(
        path,
        "a name must not start with __ (Firestore reserves __…__, NCMB reads __type and __op)")
    }
    guard !reserved.contains(name) else {
      throw invalid(
        path,
        "is a top-level name NCMB reserves (a member of the NCMB user object, or a field the "
          + "NCMB adapter keeps there); every backend refuses it so a document can be copied "
          + "between backends")
    }
    return path
  }

  /// The path of `name` under `parent` (an overlong name shortened), after checking it
  /// is 1 to ``maximumFieldNameBytes`` UTF-8 bytes.
  private static func checkLength(_ name: String, parent: String) throws(UserBackendError)
    -> String
  {
    let shown = name.utf8.count > 64 ? String(name.prefix(32)) + "…" : name
    let path = parent + "." + shown
    guard !name.isEmpty else { throw invalid(path, "a field name must not be empty") }
    guard name.utf8.count <= maximumFieldNameBytes else {
      throw invalid(path, "a field name is at most \(maximumFieldNameBytes) UTF-8 bytes")
    }
    return path
  }

  private static func checkValue(
    _ value: DocumentValue, path: String, depth: Int, insideArray: Bool, arraysInArrays: Bool
  ) throws(UserBackendError) {
    guard depth <= maximumDepth else {
      throw invalid(path, "nests deeper than \(maximumDepth) levels")
    }
    switch value {
    case .serverTimestamp where insideArray:
      throw invalid(path, "a server timestamp is not allowed inside an array")
    case .timestamp(let date):
      guard isInRange(date) else {
        throw invalid(path, "a timestamp must be between 0001-01-01 and 9999-12-31 UTC")
      }
    case .array(let values):
      for (index, element) in values.enumerated() {
        if case .array = element, !arraysInArrays {
          throw invalid(
            "\(path)[\(index)]",
            "an array must not directly contain an array (Firestore refuses it; put the inner "
              + "array in a map)")
        }
        try checkValue(
          element, path: "\(path)[\(index)]", depth: depth + 1, insideArray: true,
          arraysInArrays: arraysInArrays)
      }
    case .map(let fields):
      for name in fields.keys.sorted() {
        let nested = try checkName(name, parent: path, reserved: [])
        try checkValue(
          fields[name]!, path: nested, depth: depth + 1, insideArray: insideArray,
          arraysInArrays: arraysInArrays)
      }
    default: break
    }
  }

  /// Whether `date` is within ``earliestTimestamp``…``latestTimestamp``: at or after
  /// 0001-01-01T00:00:00Z and strictly before 10000-01-01T00:00:00Z (compared as numbers:
  /// `Date`'s `>=` is `!(<)`, which a NaN date passes). The upper bound is the exact first
  /// instant of 10000, not 9999-12-31T23:59:59.999999Z as a `Date`, which rounds to it.
  static func isInRange(_ date: Date) -> Bool {
    let seconds = date.timeIntervalSinceReferenceDate
    return seconds >= earliestTimestamp.timeIntervalSinceReferenceDate
      && seconds < endReferenceSeconds
  }

  private static func invalid(_ field: String, _ reason: String) -> UserBackendError {
    UserBackendError(.invalidInput(field: field, reason: reason))
  }
}
