'use strict';
// The bottleneck rule, the same as dev.runnel.runtime.rest.dashboard.Bottleneck (keep them in step):
// a candidate is a vertex busy >= 50% that is itself backpressured < 50% and has a direct input backpressured
// >= 50% (its input: the most backpressured one, first in edge order on a tie). The bottleneck is the candidate
// busy the most; on a tie the one whose input is more backpressured; then the first in vertex order.
// vertices: [{id, name, busyRatio, backPressuredRatio}], edges: [{source, target}] (ratios 0..1).
const BUSY_THRESHOLD = 0.5;
const BACKPRESSURE_THRESHOLD = 0.5;
const NO_BOTTLENECK = 'No bottleneck: no vertex is busy while its input is backpressured.';

function findBottleneck(vertices, edges) {
  const byId = new Map(vertices.map(v => [v.id, v]));
  let best = null;
  for (const v of vertices) {
    if (v.busyRatio < BUSY_THRESHOLD || v.backPressuredRatio >= BACKPRESSURE_THRESHOLD) continue;
    let input = null;
    for (const e of edges) {
      const u = byId.get(e.source);
      if (e.target === v.id && u && u.backPressuredRatio >= BACKPRESSURE_THRESHOLD
          && (input === null || u.backPressuredRatio > input.backPressuredRatio)) {
        input = u;
      }
    }
    if (input !== null && (best === null || v.busyRatio > best.vertex.busyRatio
        || (v.busyRatio === best.vertex.busyRatio
            && input.backPressuredRatio > best.input.backPressuredRatio))) {
      best = {vertex: v, input: input};
    }
  }
  return best;
}

function percent(ratio) {
  return Math.round(ratio * 100);
}

function bottleneckSentence(vertices, edges) {
  const b = findBottleneck(vertices, edges);
  if (b === null) return NO_BOTTLENECK;
  return `'${b.vertex.name}' is the bottleneck: busy ${percent(b.vertex.busyRatio)}%, its input '${b.input.name}'`
      + ` backpressured ${percent(b.input.backPressuredRatio)}%`;
}
