import type { Registry } from "@kubesched/framework";

export const inTreeRegistry: Registry = new Map();
