import CLI

#if canImport(Glibc)
import Glibc
#endif

exit(Ootd.main(arguments: Array(CommandLine.arguments.dropFirst())))
