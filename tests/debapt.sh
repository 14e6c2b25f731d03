# debapt.sh --
#
# Sourced by tests/tcl9.sh, tests/next.sh and tests/tclpkgs.sh (bash): apt
# with a configuration of its own in a cache directory, for one Debian
# suite; the system's package lists and installed packages are not
# touched.  apt checks the signed index and the files' hashes.

# debapt DIR LINE --
#	Makes DIR apt's state (sources.list with the one LINE, e.g. "deb-src
#	[signed-by=...] MIRROR SUITE main", lists/, cache/), sets the array
#	debapt_opts (the options that make apt-get and apt-cache use it) and
#	reads the suite's index (apt-get update).
debapt() {
    local apt=$1
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" || return 1
    echo "$2" >"$apt/sources.list" || return 1
    debapt_opts=(-o "Dir::Etc::SourceList=$apt/sources.list"
	-o Dir::Etc::SourceParts=/dev/null
	-o "Dir::State::Lists=$apt/lists"
	-o "Dir::Cache=$apt/cache"
	-o Debug::NoLocking=1)
    # As root, apt would otherwise drop to the _apt user, who cannot
    # write into the cache directory.
    [ "$(id -u)" -eq 0 ] && debapt_opts+=(-o APT::Sandbox::User=root)
    apt-get -q "${debapt_opts[@]}" update >&2
}
