#!/usr/bin/env tclsh
# mlx5calls.tcl LIBRARY TARBALL HEADER ?SOURCES ...? --
#
#	How many of the libmlx5 functions that the newest pyverbs declares
#	(pyverbs/providers/mlx5/libmlx5.pxd, read from the rdma-core source
#	TARBALL, e.g. the next lane's build/rdma-core-65/src/*.orig.tar.gz)
#	the built LIBRARY references: its undefined mlx5dv symbols (nm -D),
#	and the static inline helpers of HEADER (that rdma-core's
#	mlx5dv.h) which the SOURCES (default generic/*.c) call.  Prints
#	"referenced N of M" and the functions missing, one per line.
#
#	tclsh tools/mlx5calls/mlx5calls.tcl build/next-ext/libtcl9verbs0.1.so \
#	    build/rdma-core-65/src/rdma-core_65.0.orig.tar.gz \
#	    build/rdma-core-65/install/include/infiniband/mlx5dv.h

if {[llength $argv] < 3} {
    puts stderr "usage: mlx5calls.tcl library tarball header ?source ...?"
    exit 1
}
lassign $argv lib tarball header
set sources [lrange $argv 3 end]
if {![llength $sources]} {
    set sources [glob [file join [file dirname [info script]] .. .. \
	generic *.c]]
}

# The declared functions.
set member [lsearch -inline [split [exec tar tzf $tarball] \n] \
    */pyverbs/providers/mlx5/libmlx5.pxd]
set pxd [exec tar xzOf $tarball $member]
set wanted [lsort -unique [regexp -all -inline {\mmlx5dv_\w+(?=\s*\()} $pxd]]

# What the library references: its symbols (an _mlx5dv_ entry point
# stands for the inline that calls it) and the inlines its sources call.
set have {}
foreach s [regexp -all -inline {\m_*mlx5dv_\w+} [exec nm -D --undefined-only $lib]] {
    dict set have [string trimleft $s _] 1
}
set f [open $header]
set h [read $f]
close $f
set re {static\s+(?:inline|MLX5DV_ALWAYS_INLINE)[^;\x7b]*?\m(mlx5dv_\w+)\s*\(}
set inlines [regexp -all -inline $re $h]
foreach path $sources {
    set f [open $path]
    set src [read $f]
    close $f
    foreach {- name} $inlines {
	if {[regexp "\\m$name\\s*\\(" $src]} {
	    dict set have $name 1
	}
    }
}
set missing [lmap w $wanted {
    if {[dict exists $have $w]} continue
    set w
}]
puts "referenced [expr {[llength $wanted] - [llength $missing]}] of\
    [llength $wanted]"
foreach m $missing {
    puts $m
}
