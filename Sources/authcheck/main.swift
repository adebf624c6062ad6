import AuthCheckCLI
import Foundation

exit(AuthCheckCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
