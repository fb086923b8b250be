import CLI

#if canImport(Glibc)
import Glibc
#endif

exit(Ootd.mainOnThisThread(arguments: Array(CommandLine.arguments.dropFirst())))
