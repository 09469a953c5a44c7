import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension SessionEngine {
  // MARK: Errors

  /// A store failure as the one portable error: `.misconfigured` naming the store's
  /// setting and location, with the system's reason (never file contents). When another
  /// file was at fault (a lock file, the directory, a temporary copy), the reason names
  /// it: "cannot write the session file S: L belongs to another user …", not just S.
  func storeFailure(_ error: any Error, action: String) -> UserBackendError {
    if let error = error as? UserBackendError { return error }
    // Decision: `.malformedResponse`, not `.misconfigured`: only server-sent values can
    // make a session this large (the client's own are limited far below), so no setting
    // the user could change would help; the answer is at fault, as with any value over
    // `AnswerLimits`. The stored state is unchanged.
    if let error = error as? FileSessionStore.StateTooLarge {
      return UserBackendError(
        .malformedResponse(
          reason: "the server's answer makes a session of \(error.size) bytes, more than the "
            + "\(error.limit) bytes \(store.location) keeps; the stored session is unchanged"))
    }
    return UserBackendError(
      .misconfigured(
        setting: store.setting,
        reason: "cannot \(action) \(store.location): \(problem(error))"))
  }

  /// The static `problem(_:)`, prefixed with the path the error names when that is not the session
  /// file itself (a lock file, the directory, a temporary copy).
  func problem(_ error: any Error) -> String {
    let own = (store as? FileSessionStore)?.fileURL.path
    let path: String?
    switch error {
    case let error as LocalFileTrust.ForeignOwner:
      return (error.path == own ? "it" : error.path) + " " + error.reason
    case let error as LocalFileTrust.SharedDirectory:
      return "its directory " + error.description
    case let error as POSIXFileError: path = error.path
    case let error as BoundedFileRead.Failure: path = error.path
    default: path = nil
    }
    guard let path, let own, path != own else { return Self.problem(error) }
    return "\(path): \(Self.problem(error))"
  }

  /// The `strerror` text of a file-system error, else the error's description.
  static func problem(_ error: any Error) -> String {
    if let error = error as? POSIXFileError { return String(cString: strerror(error.code)) }
    if let error = error as? BoundedFileRead.NotRegularFile { return "it " + error.reason }
    if let error = error as? BoundedFileRead.Failure { return error.reason }
    if let error = error as? BoundedFileRead.TooLarge {
      return "it is larger than \(error.limit) bytes (signing out removes it)"
    }
    if let error = error as? FileSessionStore.NotPrivate {
      return "it \(error.reason), so its tokens may have been read (signing out removes it)"
    }
    if error is BoundedFileRead.SymbolicLink {
      return "it is a symbolic link, which a session file must not be; remove the link "
        + "(the file it points to may hold tokens)"
    }
    let nsError = error as NSError
    if let posix = nsError.userInfo[NSUnderlyingErrorKey] as? POSIXError {
      return String(cString: strerror(posix.code.rawValue))
    }
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(underlying.code)))
    }
    if nsError.domain == NSPOSIXErrorDomain {
      return String(cString: strerror(Int32(nsError.code)))
    }
    if let error = error as? CocoaError {
      switch error.code {
      case .fileReadNoPermission, .fileWriteNoPermission: return "Permission denied"
      case .fileWriteOutOfSpace: return "No space left on device"
      case .fileWriteVolumeReadOnly: return "Read-only file system"
      case .fileReadNoSuchFile, .fileNoSuchFile: return "No such file or directory"
      default: return "file error \(error.code.rawValue)"
      }
    }
    return String(describing: error)
  }
}
