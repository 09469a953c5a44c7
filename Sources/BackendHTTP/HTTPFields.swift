/// An ordered list of HTTP header fields with case-insensitive name lookup.
///
/// Order and the original spelling of names are kept (they go on the wire and into
/// cassettes as given); lookups and equality of names ignore ASCII case.
public struct HTTPFields: Sendable, Hashable, Codable, Sequence, ExpressibleByDictionaryLiteral {
  /// One header field.
  public struct Field: Sendable, Hashable, Codable {
    /// The name as written, e.g. `"X-NCMB-Timestamp"`.
    public var name: String
    /// The value.
    public var value: String
    /// A field.
    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// The fields in order.
  public private(set) var fields: [Field]

  /// Fields in the given order.
  public init(_ fields: [Field] = []) { self.fields = fields }

  /// Fields from `(name, value)` pairs, in order.
  public init(dictionaryLiteral elements: (String, String)...) {
    fields = elements.map { Field(name: $0.0, value: $0.1) }
  }

  /// Iterates the fields in order.
  public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

  /// The number of fields.
  public var count: Int { fields.count }

  /// The first value for `name` (case-insensitive), or `nil`. Setting replaces every
  /// field of that name with one field at the first one's position (or appends);
  /// setting `nil` removes them.
  public subscript(name: String) -> String? {
    get { fields.first { $0.name.lowercased() == name.lowercased() }?.value }
    set {
      let key = name.lowercased()
      if let newValue {
        if let index = fields.firstIndex(where: { $0.name.lowercased() == key }) {
          fields[index].value = newValue
          fields.removeAll { $0.name.lowercased() == key && $0.value != newValue }
          var seen = false
          fields.removeAll { field in
            guard field.name.lowercased() == key else { return false }
            defer { seen = true }
            return seen
          }
        } else {
          fields.append(Field(name: name, value: newValue))
        }
      } else {
        fields.removeAll { $0.name.lowercased() == key }
      }
    }
  }

  /// Every value for `name` (case-insensitive), in order.
  public func values(for name: String) -> [String] {
    fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
  }

  /// Appends a field, keeping any existing ones of the same name.
  public mutating func append(name: String, value: String) {
    fields.append(Field(name: name, value: value))
  }

  /// Removes every field named `name` (case-insensitive).
  public mutating func remove(_ name: String) { self[name] = nil }

  /// `true` when a field named `name` exists (case-insensitive).
  public func contains(_ name: String) -> Bool { self[name] != nil }

  /// Equality ignores the case of names but not their order or values.
  public static func == (lhs: HTTPFields, rhs: HTTPFields) -> Bool {
    lhs.fields.count == rhs.fields.count
      && zip(lhs.fields, rhs.fields).allSatisfy {
        $0.name.lowercased() == $1.name.lowercased() && $0.value == $1.value
      }
  }

  /// Hashes names lower-cased, consistent with `==`.
  public func hash(into hasher: inout Hasher) {
    for field in fields {
      hasher.combine(field.name.lowercased())
      hasher.combine(field.value)
    }
  }
}
