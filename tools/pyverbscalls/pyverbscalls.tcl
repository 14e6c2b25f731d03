#!/usr/bin/env tclsh
# pyverbscalls.tcl SET LIBRARY TARBALL INCLUDE ?SOURCES ...? --
#
#	How many of the rdma-core functions that the newest pyverbs
#	declares the built LIBRARY references.  SET is mlx5 (libmlx5:
#	pyverbs/providers/mlx5/libmlx5.pxd, mlx5dv_*) or verbs (libibverbs
#	and librdmacm: pyverbs/libibverbs.pxd and librdmacm.pxd, ibv_* and
#	rdma_*), read from the rdma-core source TARBALL (the next lane's
#	build/rdma-core-65/src/*.orig.tar.gz).  A function counts when the
#	library has it as an undefined symbol (nm -D; an entry point with
#	leading underscores stands for the inline or macro that calls it)
#	or when the SOURCES (default generic/*.c) call it and it is a
#	static inline of the SET's headers under INCLUDE (the directory
#	holding infiniband/ and rdma/ of that rdma-core).  Prints
#	"referenced N of M", then the functions missing, one per line.
#
#	tclsh tools/pyverbscalls/pyverbscalls.tcl verbs \
#	    build/next-ext/libtcl9verbs0.1.so \
#	    build/rdma-core-65/src/rdma-core_65.0.orig.tar.gz \
#	    build/rdma-core-65/install/include

if {[llength $argv] < 4} {
    puts stderr "usage: pyverbscalls.tcl mlx5|verbs library tarball include\
	?source ...?"
    exit 1
}
lassign $argv set lib tarball include
set sources [lrange $argv 4 end]
if {![llength $sources]} {
    set sources [glob [file join [file dirname [info script]] .. .. \
	generic *.c]]
}
switch -- $set {
    mlx5 {
	set pxds {pyverbs/providers/mlx5/libmlx5.pxd}
	set re {\mmlx5dv_\w+}
	set headers {infiniband/mlx5dv.h}
    }
    verbs {
	set pxds {pyverbs/libibverbs.pxd pyverbs/librdmacm.pxd}
	set re {\m(?:ibv|rdma)_\w+}
	set headers {infiniband/verbs.h rdma/rdma_cma.h rdma/rdma_verbs.h}
    }
    default {
	puts stderr "pyverbscalls.tcl: no set \"$set\": must be mlx5 or verbs"
	exit 1
    }
}

proc readFile {path} {
    set f [open $path]
    set text [read $f]
    close $f
    return $text
}

# The declared functions.
set members [split [exec tar tzf $tarball] \n]
set wanted {}
foreach pxd $pxds {
    set member [lsearch -inline $members */$pxd]
    foreach name [regexp -all -inline "$re\(?=\\s*\\()" \
	    [exec tar xzOf $tarball $member]] {
	dict set wanted $name 1
    }
}
set wanted [lsort [dict keys $wanted]]

# What the library references: its symbols, and the inlines its
# sources call.
set have {}
foreach s [regexp -all -inline "\\m_*[string range $re 2 end]" \
	[exec nm -D --undefined-only $lib]] {
    dict set have [string trimleft $s _] 1
}
set inlines {}
foreach h $headers {
    set text [readFile [file join $include $h]]
    foreach {- name} [regexp -all -inline \
	    "static\\s+(?:inline|\\w+_INLINE)\[^;\\x7b\]*?($re)\\s*\\(" $text] {
	lappend inlines $name
    }
}
foreach path $sources {
    set src [readFile $path]
    foreach name $inlines {
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
