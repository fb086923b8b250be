/// How ootd runs git in a clone it does not control: a repository's `.git/config` (a clone
/// from anyone) must not make git run programs. Every git call gets these options and
/// variables, whatever its arguments.
enum SafeGit {
  /// Global options before the command: no pager, no signature check (it runs `gpg.program`),
  /// no fsmonitor hook, the pager set to `cat` in case one is ever asked for.
  static let options = [
    "--no-pager", "-c", "log.showSignature=false", "-c", "core.pager=cat",
    "-c", "core.fsmonitor=false",
  ]

  /// Variables set for git: no system-wide configuration, never a prompt for credentials, `cat`
  /// as pager, no lazy fetch of missing objects (it would contact the clone's remote), no
  /// optional index locks.
  static let environment = [
    "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat",
    "GIT_NO_LAZY_FETCH": "1", "GIT_OPTIONAL_LOCKS": "0",
  ]
}
