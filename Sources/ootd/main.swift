import CLI

#if canImport(Glibc)
import Glibc
#endif

exit(await Ootd.main(arguments: Array(CommandLine.arguments.dropFirst())))
