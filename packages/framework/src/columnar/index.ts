// @kubesched/framework/columnar — the opt-in fast path (not upstream; @beta): the snapshot's
// nodes as typed-array columns, change tokens, and the columnar Filter/Score/PreScore interfaces a
// plugin may add to its per-node methods. Upstream's plugin contract is the main entry; nothing
// here is needed to write a plugin. The subpath imports the main entry by name, as a plugin does,
// so its types are the main entry's.
export * from "./lister";
export * from "./node-columns";
export * from "./normalize-score";
export * from "./plugins";
