# Small specs that the Slurm and Kubernetes tests share, each an edge of
# the scheduler's tree: rail-only leaves, a node split over two HB
# domains, one GH200 superchip per node, a single switch. Sourced; writes
# DIR/NAME.yaml for each.
scheduler_specs() {
    _spec() { printf 'name: %s\n%s\n' "$2" "$3" >"$1/$2.yaml"; }
    _spec "$1" rail-only 'cluster: {gpus: 512, hb_domain: 16, gpus_per_node: 8}
fabric: {design: rail-only, switch: {name: s16, radix: 16, speed: HDR}}'
    _spec "$1" split-node 'cluster: {gpus: 96, hb_domain: 4, gpus_per_node: 8, scalable_unit: 3}
fabric: {switch: {name: s16, radix: 16, speed: HDR}}'
    _spec "$1" gh200-small 'cluster: {nodes: 512, node: dgx-gh200, scalable_unit: 1}
fabric: {design: rail-only, switch: qm9700}'
    _spec "$1" one-switch 'cluster: {gpus: 64, hb_domain: 8, gpus_per_node: 8}
fabric: {switch: qm9700}'
}
