/**
 * Page object of the live dashboard: what a user does (Start, fault buttons,
 * bug toggles, forms) through accessible names, and what the tests read (the
 * store, via storeProbe, and a few DOM landmarks). Each instance owns one page
 * and records every console error, uncaught page error and failed request.
 */
import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { BugToggles } from '../../src/core/client/config';
import { BUG_HELP } from '../../src/ui/controls/BugToggles';
import { INVARIANT_LABELS } from '../../src/ui/store/logSelectors';
import type { InvariantName } from '../../src/core/sim/invariants';
import { FAULT_STYLE } from '../../src/ui/theme/statusColors';
import type { FaultAction } from '../../src/core/telemetry/events';
import { capturePage, settleFrames, withTimeout } from '../support/capture';
import { describeState, readStore, type StoreState } from '../support/storeProbe';

/** where screenshots go (artefacts of the e2e run) */
export const ARTEFACT_DIR = join(process.cwd(), 'test-results', 'e2e');

/** client form fields by key (src/ui/controls/formModel.ts CLIENT_FIELDS; inputs are #client-<key>) */
export interface ClientFormInput {
  readonly maxAttempts?: string;
  readonly backoffMillis?: string;
  readonly operationTimeoutMs?: string;
  readonly refreshWaitBudgetMs?: string;
  readonly refreshDebounceMs?: string;
  readonly attemptTimeoutMs?: string;
}

/** workload form fields by key (src/ui/controls/formModel.ts WORKLOAD_FIELDS; inputs are #wl-<key>) */
export interface WorkloadFormInput {
  readonly concurrency?: string;
  readonly thinkMs?: string;
  readonly ratePerSec?: string;
  readonly maxInFlight?: string;
  readonly keys?: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class DashboardPage {
  /** console errors, uncaught exceptions and failed requests seen so far */
  readonly problems: string[] = [];

  private constructor(readonly page: Page) {
    page.on('console', (m) => {
      if (m.type() === 'error') this.problems.push(`console.error${m.worker() ? ` (worker ${m.worker()?.url()})` : ''}: ${m.text()}`);
    });
    page.on('pageerror', (e) => this.problems.push(`page error: ${e.message}`));
    page.on('requestfailed', (r) => this.problems.push(`request failed: ${r.url()} (${r.failure()?.errorText ?? '?'})`));
    page.on('response', (r) => {
      if (r.status() >= 400) this.problems.push(`HTTP ${r.status()}: ${r.url()}`);
    });
  }

  /** a fresh page (not navigated yet) whose problems are recorded from the start */
  static async create(context: BrowserContext): Promise<DashboardPage> {
    return new DashboardPage(await context.newPage());
  }

  /** opens the dashboard (`search` e.g. "?preset=steady"); ready when the store and the booted cluster are there */
  async goto(search = ''): Promise<void> {
    const base = process.env.E2E_BASE_URL;
    if (base === undefined) throw new Error('E2E_BASE_URL is not set (run through vitest.e2e.config.ts)');
    await this.page.goto(new URL(search, base).toString(), { waitUntil: 'load' });
    await this.page.getByRole('heading', { level: 1, name: 'Zaris Churn Lab' }).waitFor({ timeout: 30_000 });
    await this.waitForStore((s) => s.cluster !== null && s.cluster.nodes.length > 0 && s.cluster.nodes.every((n) => n.status === 'up'), 30_000, 'the cluster view of the booted workers');
  }

  async close(): Promise<void> {
    if (!this.page.isClosed()) await withTimeout(this.page.close(), 20_000, 'closing the page');
  }

  // ── reading ────────────────────────────────────────────────────────────

  storeState(): Promise<StoreState> {
    return readStore(this.page);
  }

  /**
   * Polls the store until `predicate` holds; returns the state that satisfied it.
   * On timeout, fails with `what` and the last state read.
   */
  async waitForStore(predicate: (s: StoreState) => boolean, timeoutMs: number, what: string, pollMs = 250): Promise<StoreState> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const last = await this.storeState();
      if (predicate(last)) return last;
      if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last store state: ${describeState(last)}`);
      await this.page.waitForTimeout(pollMs);
    }
  }

  /** polls `read` until `ok` holds for its value; returns that value */
  async until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const v = await read();
      if (ok(v)) return v;
      if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last value ${JSON.stringify(v)}`);
      await this.page.waitForTimeout(200);
    }
  }

  /** the attempts-per-operation histogram: each bin's label, count text and budget mark */
  attemptsHistogram(): Promise<{ label: string; value: string; mark: string | null }[]> {
    return this.panel('Retries')
      .locator('.histogram')
      .evaluate((el) =>
        Array.from(el.querySelectorAll('.hcol')).map((c) => ({
          label: c.querySelector('.hlabel')?.textContent ?? '',
          value: c.querySelector('.hval')?.textContent ?? '',
          mark: c.getAttribute('data-mark'),
        })),
      );
  }

  /** polls a locator's text until it matches (panels redraw from snapshots published every 500 ms) */
  async waitForText(locator: Locator, pattern: RegExp | string, timeoutMs = 15_000): Promise<string> {
    const until = Date.now() + timeoutMs;
    const matches = (t: string) => (typeof pattern === 'string' ? t.includes(pattern) : pattern.test(t));
    for (;;) {
      const text = (await locator.count()) > 0 ? ((await locator.first().textContent()) ?? '') : '';
      if (matches(text)) return text;
      if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${locator.toString()} to show ${String(pattern)}; it shows ${JSON.stringify(text.slice(0, 300))}`);
      await this.page.waitForTimeout(200);
    }
  }

  /** a panel (a <section> labelled by its <h2>) */
  panel(title: string): Locator {
    return this.page.getByRole('region', { name: title, exact: true });
  }

  /** the overall verdict badge of the invariants panel */
  invariantsBadge(): Locator {
    return this.panel('Invariants').locator('.panel-aside .badge');
  }

  /** one invariant's row in the invariants panel */
  invariantRow(name: InvariantName): Locator {
    return this.panel('Invariants').locator('li.inv').filter({ hasText: INVARIANT_LABELS[name] });
  }

  /** a node's card in the cluster panel (its aria-label names the node and its status) */
  nodeCard(id: number): Locator {
    return this.panel('Cluster').locator(`.node-card[aria-label^="node ${id} "]`);
  }

  /** the header's headline figure by its label, e.g. "ops / s" */
  kpi(label: string): Locator {
    return this.page.locator('.kpis .kpi').filter({ has: this.page.locator('dt', { hasText: new RegExp(`^${escape(label)}`) }) }).locator('dd.kpi-value');
  }

  /** the one line under the header ("what you are seeing") */
  statusLine(): Locator {
    return this.page.getByRole('status', { name: 'What you are seeing' });
  }

  /** the evidence cards, newest first */
  evidenceCards(): Locator {
    return this.page.getByRole('region', { name: 'Fault evidence' }).locator('article');
  }

  /** a screenshot of the first screen only (what a user sees without scrolling) */
  async viewportScreenshot(path: string): Promise<string> {
    await settleFrames(this.page);
    // a viewport capture has no fallback: it throws rather than return null
    return (await capturePage(this.page, path, false)) ?? path;
  }

  // ── doing ──────────────────────────────────────────────────────────────

  /** presses Start and waits until operations complete */
  async start(): Promise<StoreState> {
    await this.page.getByRole('button', { name: 'Start', exact: true }).click();
    await this.waitForStore((s) => s.running, 30_000, 'the session to report running');
    return this.waitForStore((s) => s.totals.opsEnded > 500 && s.client !== null && s.client.epoch > 0, 30_000, 'operations to flow');
  }

  async pause(): Promise<void> {
    await this.page.getByRole('button', { name: 'Pause', exact: true }).click();
    await this.waitForStore((s) => !s.running, 30_000, 'the session to pause');
  }

  /** picks the node the fault buttons act on */
  async selectTarget(node: number): Promise<void> {
    await this.page.getByRole('combobox', { name: 'Target node' }).selectOption(String(node));
  }

  faultButton(action: FaultAction): Locator {
    return this.page.getByRole('button', { name: FAULT_STYLE[action].label, exact: true });
  }

  /** presses a fault button and waits for the control plane's fault event in the store */
  async fault(action: FaultAction, node?: number): Promise<StoreState> {
    if (node !== undefined) await this.selectTarget(node);
    const before = (await this.storeState()).faultMarkers.length;
    await this.faultButton(action).click();
    return this.waitForStore(
      (s) => s.faultMarkers.length > before && s.faultMarkers.slice(before).some((f) => f.action === action && (node === undefined || f.node === node)),
      30_000,
      `the ${action}${node !== undefined ? ` of node ${node}` : ''} fault event`,
    );
  }

  /** crashes a node (default: the target the select shows) */
  failover(node?: number): Promise<StoreState> {
    return this.fault('failover', node);
  }

  scaleOut(): Promise<StoreState> {
    return this.fault('scaleOut');
  }

  failback(node?: number): Promise<StoreState> {
    return this.fault('failback', node);
  }

  bugCheckbox(bug: keyof BugToggles): Locator {
    return this.page.getByRole('checkbox', { name: new RegExp(`^${escape(BUG_HELP[bug].label)}`) });
  }

  /** switches a historical bug toggle and waits until the client configuration in effect has it */
  async toggleBug(bug: keyof BugToggles, on = true): Promise<void> {
    const box = this.bugCheckbox(bug);
    if ((await box.isChecked()) !== on) await box.click();
    await this.waitForStore((s) => s.clientConfig.bugs[bug] === on, 30_000, `bug toggle ${bug} = ${on}`);
  }

  clientForm(): Locator {
    return this.page.getByRole('form', { name: 'Client configuration' });
  }

  workloadForm(): Locator {
    return this.page.getByRole('form', { name: 'Workload' });
  }

  /** types into the client configuration form and presses Apply (does not wait: the result may be a refusal) */
  async setClientConfig(values: ClientFormInput): Promise<void> {
    const form = this.clientForm();
    for (const [key, value] of Object.entries(values)) if (value !== undefined) await form.locator(`#client-${key}`).fill(value);
    await form.getByRole('button', { name: 'Apply client config' }).click();
  }

  /** types into the workload form and presses Apply (does not wait) */
  async setWorkload(values: WorkloadFormInput): Promise<void> {
    const form = this.workloadForm();
    for (const [key, value] of Object.entries(values)) if (value !== undefined) await form.locator(`#wl-${key}`).fill(value);
    await form.getByRole('button', { name: 'Apply workload' }).click();
  }

  /** a full-page screenshot in test-results/e2e/<name>.png (offscreen panels brought up to date first) */
  async screenshot(name: string): Promise<string | null> {
    await withTimeout(
      this.page.evaluate(async () => {
        const lab = (window as unknown as { __zarisLab?: { refreshPanels?: () => Promise<void> } }).__zarisLab;
        await lab?.refreshPanels?.();
      }),
      10_000,
      'bringing the offscreen panels up to date',
    );
    // the redraws are transitions: let React commit them
    await settleFrames(this.page);
    return capturePage(this.page, join(ARTEFACT_DIR, `${name}.png`));
  }
}
