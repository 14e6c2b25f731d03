#
# Include the TEA standard macro set
#

builtin(include,tclconfig/tcl.m4)
