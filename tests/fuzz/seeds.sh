# Sourced: the fuzz targets and where their seeds are (relative to the top of
# the source tree). tests/fuzz/corpus/TARGET holds inputs found by fuzzing
# (every input that ever crashed or hung stays there) and hand-made seeds.
FUZZ_TARGETS="spec set catalog netfile lft libra hostlist verify guidfile fail units overlay lldp ethernet search expand"
fuzz_seeds() {
    case $1 in
        spec) echo "examples tests/data/good tests/data/bad tests/data/model" ;;
        netfile) echo "tests/data/routes/fat-tree tests/data/routes/ring tests/data/routes/bad-topology" ;;
        lft) echo "tests/data/routes/fat-tree tests/data/routes/ring" ;;
        *) echo "" ;;
    esac
    echo "tests/fuzz/corpus/$1"
}
