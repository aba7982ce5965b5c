import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { parseAllDocuments } from 'yaml';
import { SETTINGS } from '../../core/config/settings.js';
import { FarmMetrics } from '../../core/metrics/farm-metrics.js';
import { HARD_LIMIT_MARGIN_MS } from '../../node-agent/job-runner.js';
import { MAX_WAIT_SECONDS } from '../../api/options/create-params.js';

const ROOT = 'deploy/kubernetes';

/**
 * The Kubernetes schemas: kubernetes-models (tommy351/kubernetes-models-ts, maintained, one release per
 * Kubernetes minor) compiles the API's OpenAPI schemas with ajv, and @kubernetes-models/keda KEDA's CRDs.
 * A kind the manifests use and this table lacks fails the test rather than going unchecked.
 */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment,
  'apps/v1 StatefulSet': StatefulSet,
  'v1 Service': Service,
  'v1 ConfigMap': ConfigMap,
  'v1 Secret': Secret,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2 HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'keda.sh/v1alpha1 ScaledObject': ScaledObject,
};

interface Manifest {
  file: string;
  doc: Record<string, unknown> & { apiVersion: string; kind: string; metadata: { name: string } };
}

function yamlFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? yamlFiles(path.join(dir, e.name)) : e.name.endsWith('.yaml') ? [path.join(dir, e.name)] : []));
}

function manifests(): Manifest[] {
  return yamlFiles(ROOT).flatMap((file) =>
    parseAllDocuments(fs.readFileSync(file, 'utf8')).map((d) => {
      expect(d.errors, file).to.deep.equal([]);
      return { file, doc: d.toJS() as Manifest['doc'] };
    }),
  );
}

const all = manifests();
const resources = all.filter((m) => m.doc.kind !== 'Kustomization');
const one = (kind: string, name: string): Manifest['doc'] => {
  const found = resources.find((m) => m.doc.kind === kind && m.doc.metadata.name === name && !m.file.includes('overlays'));
  if (!found) throw new Error(`no ${kind} ${name} in ${ROOT}`);
  return found.doc;
};

interface Container {
  name: string;
  image: string;
  args?: string[];
  env?: { name: string }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
}
type PodTemplated = { spec: { template: { spec: { terminationGracePeriodSeconds?: number; containers: Container[] } } } };

describe('Kubernetes manifests (deploy/kubernetes)', () => {
  it('are valid against the Kubernetes (and KEDA) schemas', () => {
    expect(resources.length).to.be.at.least(10);
    for (const { file, doc } of resources) {
      const Model = MODELS[`${doc.apiVersion} ${doc.kind}`];
      expect(Model, `${file}: ${doc.apiVersion} ${doc.kind} has no schema here`).to.not.equal(undefined);
      // A patch (the dev overlay's settings) is a partial object; it is still checked for what it has.
      expect(() => new Model!(doc as never).validate(), `${file}: ${doc.kind} ${doc.metadata.name}`).to.not.throw();
    }
  });

  it('list only files that exist in their kustomizations', () => {
    for (const { file, doc } of all.filter((m) => m.doc.kind === 'Kustomization')) {
      const k = doc as { resources?: string[]; patches?: { path: string }[] };
      for (const ref of [...(k.resources ?? []), ...(k.patches ?? []).map((p) => p.path)]) {
        expect(fs.existsSync(path.join(path.dirname(file), ref)), `${file}: ${ref}`).to.equal(true);
      }
    }
  });

  it('give the agent a grace period covering the longest capture it may hold, and a preStop that drains', () => {
    const agent = one('Deployment', 'shotfarm-agent') as unknown as PodTemplated;
    const pod = agent.spec.template.spec;
    // The longest job: a request's largest max_wait plus what the agent allows past it (encode, store).
    const longestJobSeconds = MAX_WAIT_SECONDS + HARD_LIMIT_MARGIN_MS / 1000;
    expect(pod.terminationGracePeriodSeconds, 'grace period').to.be.at.least(longestJobSeconds + 15);
    const preStop = pod.containers[0]!.lifecycle?.preStop?.exec?.command.join(' ') ?? '';
    expect(preStop).to.match(/shotfarm nodes drain "\$SHOTFARM_NODE_ID"/);
    expect(pod.containers[0]!.env?.map((e) => e.name)).to.include('SHOTFARM_NODE_ID');
  });

  it('name only declared settings, and run the roles through the image entrypoint', () => {
    const declared = new Set(SETTINGS.map((s) => s.name));
    const shotfarmContainers = resources
      .filter((m) => m.doc.kind === 'Deployment')
      .flatMap((m) => (m.doc as unknown as PodTemplated).spec.template.spec.containers)
      .filter((c) => c.image === 'shotfarm');
    expect(shotfarmContainers.map((c) => c.args)).to.have.deep.members([['api'], ['agent']]);
    const names = new Set<string>();
    for (const { doc } of resources.filter((m) => ['ConfigMap', 'Secret'].includes(m.doc.kind) && m.doc.metadata.name.startsWith('shotfarm-'))) {
      for (const key of Object.keys({ ...(doc.data as object), ...(doc.stringData as object) })) names.add(key);
    }
    for (const c of shotfarmContainers) for (const e of c.env ?? []) names.add(e.name);
    // A SHOTFARM_* name anywhere in the manifests (commands, comments included) must be a setting too.
    for (const file of yamlFiles(ROOT)) for (const m of fs.readFileSync(file, 'utf8').matchAll(/\bSHOTFARM_[A-Z0-9_]+/g)) names.add(m[0]);
    expect(
      [...names].filter((n) => !declared.has(n)),
      'names that are no setting',
    ).to.deep.equal([]);
  });

  it('scale the agents on a metric the api exports', async () => {
    const metrics = new FarmMetrics({ queueDepth: async () => ({}), queueAges: async () => [], nodes: async () => [], agentSlots: 2 });
    const exported = new Set((await metrics.registry.getMetricsAsJSON()).map((m) => m.name));
    const keda = one('ScaledObject', 'shotfarm-agent') as unknown as { spec: { scaleTargetRef: { name: string }; triggers: { metadata: { query: string } }[] } };
    const hpa = one('HorizontalPodAutoscaler', 'shotfarm-agent') as unknown as { spec: { scaleTargetRef: { name: string }; metrics: { external: { metric: { name: string } } }[] } };
    const named = [...keda.spec.triggers.map((t) => /\b(shotfarm_[a-z_]+)/.exec(t.metadata.query)?.[1]), ...hpa.spec.metrics.map((m) => m.external.metric.name)];
    for (const name of named) expect(exported.has(name ?? ''), `${name} is exported`).to.equal(true);
    expect([keda.spec.scaleTargetRef.name, hpa.spec.scaleTargetRef.name]).to.deep.equal(['shotfarm-agent', 'shotfarm-agent']);
  });
});
