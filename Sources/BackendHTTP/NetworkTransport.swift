import Foundation

/// The transport for real network use on this platform.
public enum NetworkTransport {
  /// A new network transport with its own connections: ``CurlTransport`` on Linux (the
  /// system's libcurl, driven directly), ``URLSessionTransport`` on Apple platforms. Both
  /// keep the same promises (timeouts, answer-size limit, no redirects, no cookies, typed
  /// secret-free errors); see each for details.
  /// - Parameters:
  ///   - defaultTimeout: seconds for requests without their own timeout (default 30).
  ///   - maximumResponseBodyBytes: the largest answer body read, in bytes (default 10 MiB).
  public static func standard(
    defaultTimeout: TimeInterval = URLSessionTransport.standardTimeout,
    maximumResponseBodyBytes: Int = URLSessionTransport.standardMaximumResponseBodyBytes
  ) -> any HTTPTransport {
    #if canImport(CCurl)
      CurlTransport(
        defaultTimeout: defaultTimeout, maximumResponseBodyBytes: maximumResponseBodyBytes)
    #else
      URLSessionTransport(
        defaultTimeout: defaultTimeout, maximumResponseBodyBytes: maximumResponseBodyBytes)
    #endif
  }
}
