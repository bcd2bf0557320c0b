// The transparency API (packages/api/src/transparency.ts, docs/transparency.md): public reads with no
// session (summary, snapshots, a tree and its raw leaves, an epoch's rewards), the signed-in user's own
// proofs, and the operator's snapshot on request (audited). Publication and reserve addresses are the
// chain side's routes, registered by its own code.
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { treeDownloadPath, treeQuery, transparencyRoutes } from '@nadi/api/transparency';
import { nodeBytes } from '@nadi/proof/tree';
import { AppError } from '../../lib/app-error.ts';
import { registerRoute } from '../../lib/register-route.ts';
import { balanceProofOf, incomeProofOf, TreeCache } from './proofs.ts';
import { coversOf, findSnapshot, findTree, snapshotPage, treeChunks } from './repo.ts';
import { takeSnapshot } from './snapshot.ts';
import { rewardsInfoOf, snapshotDetailOf, snapshotInfoOf, transparencySummary, treeInfo } from './views.ts';

/** How long a client may keep a tree's leaves: a tree never changes once written. */
const treeCacheSeconds = 3_600;

export async function transparencyModule(app: FastifyInstance) {
  const { deps } = app;
  const trees = new TreeCache(deps.db, app.log);

  registerRoute(app, transparencyRoutes.summary, async () => transparencySummary(deps));
  registerRoute(app, transparencyRoutes.snapshots, async ({ input }) => {
    const { rows, total } = await snapshotPage(deps.db, input.page, input.page_size);
    const covers = await coversOf(
      deps.db,
      rows.map((r) => r.id),
    );
    return { list: rows.map((r) => snapshotInfoOf(deps.settings, r, covers)), total, page: input.page, page_size: input.page_size };
  });
  registerRoute(app, transparencyRoutes.snapshot, async ({ input }) => {
    const snapshot = await findSnapshot(deps.db, input.id);
    if (!snapshot) throw new AppError('NOT_FOUND');
    return snapshotDetailOf(deps, snapshot);
  });
  registerRoute(app, transparencyRoutes.tree, async ({ input }) => treeInfo(deps.db, input.scope, treeDownloadPath));
  registerRoute(app, transparencyRoutes.rewards, async ({ input }) => rewardsInfoOf(deps, input.epoch));
  registerRoute(app, transparencyRoutes.balanceProof, async ({ session, input }) => balanceProofOf(deps, trees, session.userId, input.snapshot_id));
  registerRoute(app, transparencyRoutes.incomeProof, async ({ session, input }) => incomeProofOf(deps, trees, session.userId, input.epoch));
  registerRoute(app, transparencyRoutes.operatorSnapshot, async ({ session }) => {
    const outcome = await takeSnapshot(deps, 'operator', null, { actorId: session.userId });
    if (outcome.status !== 'taken') throw new AppError('SNAPSHOT_BUSY');
    const snapshot = await findSnapshot(deps.db, outcome.snapshotId);
    if (!snapshot) throw new Error(`snapshot ${outcome.snapshotId} was taken but cannot be read`);
    return snapshotInfoOf(deps.settings, snapshot, await coversOf(deps.db, [snapshot.id]));
  });
  registerTreeDownload(app);
}

/**
 * `GET /api/v1/transparency/tree.bin?scope=…`: a tree's leaf level as raw bytes (packages/proof's
 * layout), streamed chunk by chunk. Outside the JSON contract, so the request envelope leaves it plain
 * (plugins/envelope.ts opens only contract routes; @nadi/api/envelope-paths lists it): an independent
 * verifier downloads it with any HTTP client.
 */
function registerTreeDownload(app: FastifyInstance) {
  const { deps } = app;
  app.get(treeDownloadPath, { schema: { hide: true }, config: { limitClass: 'read' } }, async (request, reply) => {
    const parsed = treeQuery.safeParse(request.query);
    if (!parsed.success) throw new AppError('BAD_REQUEST');
    const tree = await findTree(deps.db, parsed.data.scope);
    if (!tree) throw new AppError('NOT_FOUND');
    const chunks = treeChunks(deps.db, tree.scope);
    reply
      .header('content-type', 'application/octet-stream')
      .header('content-length', String(tree.leafCount * nodeBytes(tree.dims.length)))
      .header('cache-control', `public, max-age=${treeCacheSeconds}`)
      .header('x-tree-dims', tree.dims.join(','))
      .header('x-tree-leaf-count', String(tree.leafCount));
    return reply.send(
      Readable.from(
        (async function* () {
          for await (const chunk of chunks) yield Buffer.from(chunk.leaves.buffer, chunk.leaves.byteOffset, chunk.leaves.byteLength);
        })(),
      ),
    );
  });
}
