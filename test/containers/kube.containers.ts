import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { parseAllDocuments, stringify } from 'yaml';
import { repoPath } from '../support/repo-path.js';
import { Api, logsOf, measured, podman, poll, startSite, TEST_IMAGE } from './podman.js';

type Doc = Record<string, any>;

/** The documents of deploy/kubernetes files, in the order the kustomizations list them. */
function docsOf(...files: string[]): Doc[] {
  return files.flatMap((f) => parseAllDocuments(fs.readFileSync(repoPath(`deploy/kubernetes/${f}`), 'utf8')).map((d) => d.toJS() as Doc));
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The manifests of deploy/kubernetes run by `podman kube play` (Debian's podman 4.3.1): NATS, Postgres (the dev
 * overlay's), the api and an agent start, a capture goes through, and an agent deleted drains and exits 0.
 * make test-containers runs it (after build-image.sh and standin-images.sh); not in CI.
 * What podman 4.3 does not run is adapted here, each change named:
 * - StatefulSet → Deployment (podman plays Pods and Deployments), its volume claim → emptyDir (Postgres's
 *   stand-in, which runs as postgres and cannot take over a root-owned folder: its image's own);
 * - Services → the pod names podman's DNS answers (`<deployment>-pod-0`), written into the ConfigMap and Secret;
 * - Secret → a podman secret (a JSON object of base64 values, what podman 4.3 reads for secretRef);
 * - MinIO → s3rver and a site to capture, started beside the pods (as compose.test.yaml does);
 * - one api replica (two on the 2-core test machine add nothing here), the test image, the api's port on loopback,
 *   no other port published (podman 4.3 publishes every containerPort on the host).
 * podman 4.3 runs no preStop and ignores terminationGracePeriodSeconds: the drain on delete is the agent's own
 * SIGTERM handling, which the preStop's drain request leads to the same way (the unit test checks the preStop).
 */
describe('Kubernetes manifests (deploy/kubernetes with podman kube play)', function () {
  this.timeout(600_000);
  const project = `sfkube${process.pid}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-kube-'));
  const playFile = path.join(dir, 'farm.yaml');
  let api: Api;
  let key = '';

  const adapt = (docs: Doc[], apiPort: number): Doc[] => {
    const podHost = (service: string): string => `${service}-pod-0`;
    const out: Doc[] = [];
    for (const doc of docs) {
      if (doc.kind === 'Service' || doc.kind === 'PodDisruptionBudget' || doc.kind === 'Kustomization') continue;
      if (doc.kind === 'Secret') continue; // made a podman secret below
      if (doc.kind === 'ConfigMap') {
        doc.data.NATS_URL = doc.data.NATS_URL.replace('shotfarm-nats', podHost('shotfarm-nats'));
        doc.data.S3_ENDPOINT = 'http://shotfarm-s3:9000';
        doc.data.SHOTFARM_PRIVATE_TARGET_ALLOWLIST = 'site';
      }
      if (doc.kind === 'StatefulSet') {
        doc.kind = 'Deployment';
        const claims = (doc.spec.volumeClaimTemplates ?? []) as Doc[];
        doc.spec.template.spec.volumes = [...(doc.spec.template.spec.volumes ?? []), ...claims.map((c) => ({ name: c.metadata.name, emptyDir: {} }))];
        delete doc.spec.volumeClaimTemplates;
        delete doc.spec.serviceName;
        if (doc.metadata.name === 'shotfarm-postgres') {
          // The Postgres stand-in runs as postgres and cannot take over a root-owned emptyDir as the official
          // image's root entrypoint does: it keeps its data in its own folder.
          doc.spec.template.spec.volumes = [];
          for (const c of doc.spec.template.spec.containers as Doc[]) {
            delete c.volumeMounts;
            c.env = (c.env as { name: string }[]).filter((e) => e.name !== 'PGDATA');
          }
        }
      }
      if (doc.kind === 'Deployment') {
        for (const c of doc.spec.template.spec.containers as Doc[]) {
          if (c.image === 'shotfarm') c.image = TEST_IMAGE;
          if (!c.ports) continue;
          if (doc.metadata.name === 'shotfarm-api') for (const p of c.ports) Object.assign(p, { hostPort: apiPort, hostIP: '127.0.0.1' });
          else {
            // podman 4.3 publishes every containerPort on the host (NATS's 4222 and Postgres's 5432 are taken
            // there): only the api's is kept; the probes name the port by number instead.
            const numbers = new Map((c.ports as { name: string; containerPort: number }[]).map((p) => [p.name, p.containerPort]));
            for (const probe of [c.livenessProbe, c.readinessProbe].filter(Boolean)) {
              for (const how of [probe.httpGet, probe.tcpSocket].filter(Boolean)) how.port = numbers.get(how.port) ?? how.port;
            }
            delete c.ports;
          }
        }
        if (doc.metadata.name === 'shotfarm-api') doc.spec.replicas = 1;
      }
      out.push(doc);
    }
    return out;
  };

  before(async () => {
    const started = Date.now();
    await podman(['network', 'create', project]);
    const apiPort = await freePort();
    const base = docsOf('config.yaml', 'nats.yaml', 'api.yaml', 'agent.yaml');
    const dev = docsOf('overlays/dev/postgres.yaml', 'overlays/dev/settings.yaml');
    // The dev overlay's secrets, with s3rver's one account and Postgres at its pod's name.
    const secret = { ...base.find((d) => d.kind === 'Secret')!.stringData, ...dev.find((d) => d.kind === 'Secret')!.stringData } as Record<string, string>;
    Object.assign(secret, { S3_ACCESS_KEY: 'S3RVER', S3_SECRET_KEY: 'S3RVER', DATABASE_URL: secret.DATABASE_URL!.replace('shotfarm-postgres', 'shotfarm-postgres-pod-0') });
    key = secret.SHOTFARM_BOOTSTRAP_KEY!;
    const secretFile = path.join(dir, 'secret.json');
    fs.writeFileSync(secretFile, JSON.stringify(Object.fromEntries(Object.entries(secret).map(([k, v]) => [k, Buffer.from(v).toString('base64')]))));
    await podman(['secret', 'create', 'shotfarm-secrets', secretFile]);
    await podman([
      'run',
      '-d',
      '--name',
      `${project}-s3`,
      '--network',
      project,
      '--network-alias',
      'shotfarm-s3',
      'localhost/shotfarm-test/s3rver:latest',
      '-d',
      '/data',
      '-a',
      '0.0.0.0',
      '-p',
      '9000',
      '--silent',
      '--no-vhost-buckets',
    ]);
    await startSite(`${project}-site`, project);
    const docs = adapt([...base.filter((d) => d.kind !== 'Secret'), ...dev.filter((d) => d.kind === 'StatefulSet')], apiPort);
    fs.writeFileSync(playFile, docs.map((d) => stringify(d)).join('---\n'));
    await podman(['kube', 'play', '--network', project, playFile]);
    api = new Api(`http://127.0.0.1:${apiPort}`, key);
    await poll('the api to be ready', async () => (await fetch(`${api.base}/readyz`).catch(() => null))?.ok, 120_000).catch(async (err: unknown) => {
      for (const c of ['shotfarm-api-pod-0-api', 'shotfarm-nats-pod-0-nats', 'shotfarm-postgres-pod-0-postgres']) {
        process.stdout.write(`--- ${c}\n${(await logsOf(c).catch(String)).slice(-3000)}\n`);
      }
      throw err;
    });
    measured('kube play to api ready', `${((Date.now() - started) / 1000).toFixed(1)} s`);
    await poll('the agent to join', async () => ((await api.get('/admin/nodes')) as unknown[]).length === 1, 180_000);
    measured('kube play to the agent taking jobs', `${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  after(async () => {
    if (fs.existsSync(playFile)) await podman(['kube', 'down', playFile]).catch((err: unknown) => process.stdout.write(`kube down: ${String(err)}\n`));
    for (const c of [`${project}-s3`, `${project}-site`]) await podman(['rm', '-f', c]).catch(() => undefined);
    await podman(['secret', 'rm', 'shotfarm-secrets']).catch(() => undefined);
    await podman(['network', 'rm', '-f', project]).catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names the agent by its pod and takes a screenshot through it', async () => {
    const [node] = (await api.get('/admin/nodes')) as { id: string }[];
    expect(node!.id).to.equal('shotfarm-agent-pod-0');
    const started = Date.now();
    const [record] = await api.ended([await api.create('http://site:8000/', 'chrome')]);
    measured('a capture through the kube-played farm', `${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(record!.status).to.equal('finished');
    expect((await api.image(record!.id)).length).to.be.above(1000);
  });

  it('drains the agent when its pod is deleted: the capture it holds finishes, it leaves and exits 0', async () => {
    const container = 'shotfarm-agent-pod-0-agent';
    // A page that answers after 8 s keeps a capture in flight while the pod is stopped.
    const id = await api.create('http://site:8000/slow?ms=8000&n=drain', 'chrome');
    await poll('the agent to hold the capture', async () => ((await api.get('/admin/nodes')) as { inFlight: number }[])[0]?.inFlight === 1, 60_000);
    const started = Date.now();
    // As the kubelet does: the app container first, the pod's network (its infra container) after; `podman pod
    // stop` would take the network away while the agent still publishes its result. The grace is the
    // manifest's (podman 4.3 does not read terminationGracePeriodSeconds itself).
    await podman(['stop', '-t', '390', container]);
    measured('agent pod stop with a capture in flight to exit (drained)', `${((Date.now() - started) / 1000).toFixed(1)} s`);
    expect(await podman(['inspect', '--format', '{{.State.ExitCode}}', container])).to.equal('0');
    expect(await logsOf(container)).to.match(/SIGTERM received, stopping/);
    const [record] = await api.ended([id], 10_000);
    expect(record!.status, 'the capture held during the drain').to.equal('finished');
    await poll('the agent to leave the registry', async () => ((await api.get('/admin/nodes')) as unknown[]).length === 0, 30_000);
  });
});
