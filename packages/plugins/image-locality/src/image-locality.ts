// upstream: pkg/scheduler/framework/plugins/imagelocality/image_locality.go
import type { Pod } from "@kubesched/api";
import {
  type CycleState,
  type Handle,
  ImageNamesSignerName,
  type ImageStateSummary,
  MaxNodeScore,
  type NodeInfo,
  type ScoreExtensions,
  type ScorePlugin,
  type SignPlugin,
  type SignPodResult,
  type Status,
} from "@kubesched/framework";
import type { ColumnarScorePlugin, ColumnWindow } from "@kubesched/framework/columnar";

/** The plugin's registered name. */
export const name = "ImageLocality";

// Bounds of the image score range: a reasonable size range for compressed container images
// (the 90th percentile of images on Docker Hub falls in it).
const mb = 1024 * 1024;
export const minThreshold = 23 * mb;
export const maxContainerThreshold = 1000 * mb;

/** The CRI name of an image: `:latest` is appended when it has neither tag nor digest. */
export function normalizedImageName(image: string): string {
  if (image.lastIndexOf(":") <= image.lastIndexOf("/")) return `${image}:latest`;
  return image;
}

/**
 * The image's size scaled by the fraction of nodes that have it, which damps the "node
 * heating" of pods piling onto the few nodes that already pulled a popular image.
 */
function scaledImageScore(state: ImageStateSummary, totalNumNodes: number): number {
  const spread = state.numNodes / totalNumNodes;
  return Math.trunc(state.size * spread);
}

/** Scales the summed image scores, clamped to [23Mi, 1000Mi × containers], to [0, 100]. */
export function calculatePriority(sumScores: number, numContainers: number): number {
  const maxThreshold = maxContainerThreshold * numContainers;
  let s = sumScores;
  if (s < minThreshold) s = minThreshold;
  else if (s > maxThreshold) s = maxThreshold;
  const score = Math.trunc((MaxNodeScore * (s - minThreshold)) / (maxThreshold - minThreshold));
  // A pod without containers divides 0 by a negative number: -0, which Go's integers do not have.
  return score === 0 ? 0 : score;
}

/** ImageLocality: favors nodes that already have the images of the pod's containers. */
export class ImageLocality implements ScorePlugin, ColumnarScorePlugin, SignPlugin {
  // The normalized images of the last pod scored, so scoring each node allocates nothing.
  private lastPod: Pod | null = null;
  private images: string[] = [];

  constructor(private readonly handle: Handle) {}

  name(): string {
    return name;
  }

  /** Scoring depends on the pod's images: their normalized names, unique and sorted (upstream SignPod). */
  signPod(pod: Pod): SignPodResult {
    const images = new Set<string>();
    for (const c of pod.spec?.containers ?? []) images.add(normalizedImageName(c.image ?? ""));
    for (const c of pod.spec?.initContainers ?? []) images.add(normalizedImageName(c.image ?? ""));
    const names = [...images].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return { fragments: [{ key: ImageNamesSignerName, value: names }], status: null };
  }

  private podImages(pod: Pod): string[] {
    if (pod !== this.lastPod) {
      const images: string[] = [];
      for (const c of pod.spec?.initContainers ?? []) images.push(normalizedImageName(c.image ?? ""));
      for (const c of pod.spec?.containers ?? []) images.push(normalizedImageName(c.image ?? ""));
      this.images = images;
      this.lastPod = pod;
    }
    return this.images;
  }

  score(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | Status {
    const totalNumNodes = this.handle.snapshotSharedLister().nodeInfos().list().length;
    const images = this.podImages(pod);
    let sum = 0;
    for (let i = 0; i < images.length; i++) {
      const state = nodeInfo.imageStates.get(images[i]!);
      if (state !== undefined) sum += scaledImageScore(state, totalNumNodes);
    }
    return calculatePriority(sum, images.length);
  }

  /** Nodes without images all score what an empty sum scores; the others as score(). */
  scoreColumns(state: CycleState, pod: Pod, window: ColumnWindow, scores: Float64Array): Status | null {
    const { columns, indices, count } = window;
    const imageCount = columns.imageCount;
    const infos = columns.nodeInfos;
    const none = calculatePriority(0, this.podImages(pod).length);
    for (let k = 0; k < count; k++) {
      const idx = indices[k]!;
      scores[k] = imageCount[idx] === 0 ? none : (this.score(state, pod, infos[idx]!) as number);
    }
    return null;
  }

  scoreExtensions(): ScoreExtensions | null {
    return null;
  }
}
