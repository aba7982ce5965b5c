import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { readTreeRss, readTreeRssByWalk } from '../../node-agent/process-tree-rss.js';

/** RSS of one process alone, bytes. */
const ownRss = (pid: number): number => Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'))?.[1] ?? 0) * 1024;

describe("a node's process tree RSS (node-agent/process-tree-rss.ts)", function () {
  this.timeout(20_000);
  let child: ChildProcess;

  before(async () => {
    // A child with a grandchild (the shell's sleep), as a browser with its renderers.
    child = spawn('sh', ['-c', 'sleep 30 & wait'], { stdio: 'ignore' });
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
  after(() => {
    child.kill('SIGKILL');
  });

  it('counts the same processes through the children files as by walking all of /proc', () => {
    const shell = ownRss(child.pid!);
    expect(shell).to.be.greaterThan(0);
    const byChildren = readTreeRss(child.pid!);
    const byWalk = readTreeRssByWalk(child.pid!);
    // sh and its sleep: both found either way (their RSS does not move between the two reads).
    expect(byChildren).to.equal(byWalk);
    expect(byChildren, 'the sleep below the shell counts').to.be.greaterThan(shell);
  });

  it('is null for a process that does not exist', () => {
    // PIDs never reach 2^22 + 1 (the kernel's pid_max limit is 2^22).
    expect(readTreeRss(2 ** 22 + 1)).to.equal(null);
  });
});
