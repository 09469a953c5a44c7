import Foundation
import UserBackendKit

extension NCMBUserBackend {
  /// The signed-in user's document: the custom fields of the NCMB user object, read and
  /// written with the session token (docs/wire/ncmb.md, "User fields as the user's
  /// document"). Capability ``Capability/userDocuments``.
  public var userDocuments: any UserDocumentStore { NCMBDocumentStore(backend: self) }
}
