import Foundation
import ReqRunCLI

// Everything lives in ReqRunCLI; objects (and libcurl handles) are released before `exit` runs.
exit(ReqRunCommand.main())
