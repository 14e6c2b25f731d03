# verbs.tcl --
#
#	Tcl-level helpers of the verbs package.
