// Loans/Loan and Loans/Loan/{loanId}/RepaymentPlan (+ OnlineRepaymentPlan) on the demo data: the fields of the spec
// (test/fixtures/master-data-wire-loans.ts), every key without showNullValues, each filter alone and combined, paging,
// one-ledger keys, the permission and parameter errors, and the links between loans, plans, persons and units.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../../../test/support/db.ts';
import { bearer, testApp, type TestApp } from '../../../test/support/app.ts';
import { at, first } from '../../../test/support/lists.ts';
import type { WireRecord } from '../../../test/support/wire.ts';
import { checkShape } from '../../../test/fixtures/rent-accounting-wire-shapes.ts';
import {
  CONDITION_OBJECTS,
  LOAN,
  LOAN_OBJECTS,
  ONLINE_REPAYMENT_PLAN_ENTRY,
  REPAYMENT_PLAN_ENTRY,
} from '../../../test/fixtures/master-data-wire-loans.ts';
import { PERMISSIONS } from '../../auth/permissions.ts';
import { loadDemo } from '../../dataset/demo/load.ts';

const LOANS = '/service/v1.2/Loans/Loan';
const INCLUDES = ['Banking', 'ObjectAssignment', 'Condition', 'RepaymentPlan', 'AdditionalField']
  .map((f) => `&include${f}=true`)
  .join('');

/** [filter, value from a sample loan, predicate on loans of the full list]. */
const FILTERS: [string, (l: WireRecord) => string, (l: WireRecord, v: string) => boolean][] = [
  ['loanId', (l) => String(l.Id), (l, v) => l.Id === Number(v)],
  ['loanIdNum', (l) => l.IdNum, (l, v) => l.IdNum === v],
  ['loanTypeId', (l) => String(l.LoanType.Id), (l, v) => l.LoanType.Id === Number(v)],
  ['companyCodeId', (l) => String(l.CompanyCode.Id), (l, v) => l.CompanyCode.Id === Number(v)],
  ['lenderId', (l) => String(l.Lender.Id), (l, v) => l.Lender.Id === Number(v)],
  ['lenderNumber', (l) => l.Lender.LenderNumber, (l, v) => l.Lender.LenderNumber === v],
  ['borrowerId', (l) => String(l.Borrower.Id), (l, v) => l.Borrower.Id === Number(v)],
  ['borrowerNumber', (l) => l.Borrower.BorrowerNumber, (l, v) => l.Borrower.BorrowerNumber === v],
];

for (const dialect of DIALECTS) {
  describe(`Loans [${dialect}]`, () => {
    let t: TestApp;
    let token: string;
    let all: WireRecord[] = [];
    const call = (url: string, auth = token) => t.app.inject({ url, headers: bearer(auth) });
    /** Every record, paged as clients do (limit=100, offset += 100 until a short page). */
    const everything = async (path: string, query = '', auth = token) => {
      const out: WireRecord[] = [];
      for (let offset = 0; ; offset += 100) {
        const res = await call(`${path}?limit=100&offset=${offset}${query}`, auth);
        assert.equal(res.statusCode, 200, res.body);
        const page = res.json<WireRecord[]>();
        out.push(...page);
        if (page.length < 100) return out;
      }
    };
    before(async () => {
      t = await testApp(dialect);
      await loadDemo(t.database, { scale: 1, seed: 3 });
      token = await t.login();
      all = await everything(LOANS, `&showNullValues=true${INCLUDES}`);
    });
    after(() => t.close());

    it('every field of the spec with its type; every key without showNullValues; the objects clients index', async () => {
      assert.ok(all.length >= 10, `${all.length} loans`);
      for (const loan of all) {
        checkShape(loan, LOAN, `Loan ${String(loan.Id)}`);
        for (const key of LOAN_OBJECTS) assert.notEqual(loan[key], null, `Loan ${String(loan.Id)}: ${key}`);
        assert.ok(loan.Conditions.length > 0 && loan.AnnuityHeader.length > 0 && loan.ObjectAssignments.length > 0);
        for (const c of loan.Conditions as WireRecord[])
          for (const key of CONDITION_OBJECTS) assert.notEqual(c[key], null, `Loan ${String(loan.Id)}: ${key}`);
      }
      // filled without showNullValues too: every field a client needs
      const quiet = await everything(LOANS, INCLUDES);
      assert.deepEqual(quiet, all);
      const filled = all.filter((l) => l.PrecursorLoan === null && l.FollowerLoan === null);
      assert.ok(filled.length > 0);
      const nulls = checkShape(first(filled), LOAN).filter((p) => !/FormerVirtualIban|ArgeCode/.test(p));
      assert.deepEqual(nulls.sort(), ['$.FollowerLoan', '$.PrecursorLoan']);
      // without include flags the child lists and Banking are null, every key still present
      const bare = first(await everything(LOANS, `&loanId=${String(first(all).Id)}`));
      assert.deepEqual(Object.keys(bare).sort(), Object.keys(LOAN as object).sort());
      for (const key of ['Banking', 'Conditions', 'AnnuityHeader', 'ObjectAssignments', 'RepaymentPlan'])
        assert.equal(bare[key], null, key);
    });

    it('numbers, links and the repayment plan agree', async () => {
      const byId = new Map(all.map((l) => [l.Id as number, l]));
      const withPrecursor = all.filter((l) => l.PrecursorLoan !== null);
      assert.ok(withPrecursor.length > 0);
      for (const l of withPrecursor)
        assert.deepEqual(byId.get(l.PrecursorLoan.Id)?.FollowerLoan, { Id: l.Id, IdNum: l.IdNum });
      const units = new Map(
        (await everything('/service/v1.2/CommercialInventory/EconomicUnits')).map((e) => [e.Id as number, e]),
      );
      const persons = new Set((await everything('/service/v1.2/PersonsRead/Persons')).map((p) => p.IdNum as string));
      for (const l of all) {
        const unit = units.get(first(l.ObjectAssignments as WireRecord[]).EconomicUnit.Id);
        assert.equal(unit?.IdNum, first(l.ObjectAssignments as WireRecord[]).EconomicUnit.IdNum);
        assert.match(l.IdNum, /^\d{5}\.\d{2}$/);
        assert.ok(l.IdNum.startsWith(`${String(unit?.IdNum)}.`));
        assert.ok(persons.has(l.Lender.LenderNumber) && persons.has(l.Borrower.BorrowerNumber));
        for (const h of l.AnnuityHeader as WireRecord[])
          for (const c of h.Conditions as WireRecord[])
            assert.ok((l.Conditions as WireRecord[]).some((x) => x.Id === c.Id));
      }
      const current = all.filter((l) => (l.RepaymentPlan as WireRecord[]).length > 0);
      assert.ok(current.length > 0);
      for (const l of current.slice(0, 5)) {
        const plan = await everything(`${LOANS}/${String(l.Id)}/RepaymentPlan`);
        assert.deepEqual(plan, l.RepaymentPlan);
        for (const e of plan) checkShape(e, REPAYMENT_PLAN_ENTRY);
        const online = await everything(`${LOANS}/${String(l.Id)}/OnlineRepaymentPlan`);
        const future = plan.filter((e) => e.IsPastPeriod === false);
        assert.ok(future.length > 0 && future.length < plan.length);
        assert.deepEqual(
          online.map((e) => [e.Maturity, e.RestDebt, e.CurrentResidualDebt, e.NominalOrigin, e.CalculationDate]),
          future.map((e) => [e.Maturity, e.RestDebt, l.ResidualDebt, l.NominalCapital, l.CurrentDate]),
        );
        for (const e of online) checkShape(e, ONLINE_REPAYMENT_PLAN_ENTRY);
        const paged = [
          ...(await call(`${LOANS}/${String(l.Id)}/RepaymentPlan?limit=3`)).json<WireRecord[]>(),
          ...(await call(`${LOANS}/${String(l.Id)}/RepaymentPlan?limit=3&offset=3`)).json<WireRecord[]>(),
        ];
        assert.deepEqual(paged, plan.slice(0, 6));
      }
      // an unknown loan in the path is a 404 naming it (decisions §3); a known one past its plan's end is []
      for (const plan of ['RepaymentPlan', 'OnlineRepaymentPlan']) {
        for (const id of [99999999, 0, -1]) {
          const unknown = await call(`${LOANS}/${id}/${plan}`);
          assert.equal(unknown.statusCode, 404, unknown.body);
          assert.deepEqual(unknown.json(), { loanId: [`No record with Id ${id}.`] });
        }
        assert.equal((await call(`${LOANS}/abc/${plan}`)).statusCode, 400, 'not an id at all');
        const past = await call(`${LOANS}/${String(first(current).Id)}/${plan}?limit=10&offset=100000`);
        assert.equal(past.statusCode, 200, past.body);
        assert.deepEqual(past.json(), []);
      }
    });

    for (const [name, valueOf, pred] of FILTERS) {
      it(`filter ${name} alone`, async () => {
        const value = valueOf(at(all, Math.floor(all.length / 3)));
        const expected = all.filter((l) => pred(l, value));
        assert.ok(
          expected.length > 0 &&
            (name.startsWith('loanId') || name === 'companyCodeId' || expected.length <= all.length),
        );
        assert.deepEqual(
          await everything(LOANS, `&showNullValues=true${INCLUDES}&${name}=${encodeURIComponent(value)}`),
          expected,
        );
      });
    }

    it('filters combine with AND (case-insensitive names); an unknown id answers []', async () => {
      const sample = at(all, 2);
      const query = `&CompanyCodeId=${String(sample.CompanyCode.Id)}&lenderNumber=${String(sample.Lender.LenderNumber)}&loanTypeId=${String(sample.LoanType.Id)}`;
      const got = await everything(LOANS, query);
      const want = all.filter(
        (l) =>
          l.CompanyCode.Id === sample.CompanyCode.Id &&
          l.Lender.LenderNumber === sample.Lender.LenderNumber &&
          l.LoanType.Id === sample.LoanType.Id,
      );
      assert.ok(want.length > 0);
      assert.deepEqual(
        got.map((l) => l.Id),
        want.map((l) => l.Id),
      );
      assert.deepEqual(await everything(LOANS, `&loanId=${String(sample.Id)}&borrowerId=99999999`), []);
      assert.deepEqual(await everything(LOANS, '&loanId=99999999'), []);
      assert.deepEqual(await everything(LOANS, '&loanIdNum=nothing'), []);
    });

    it('paging: pages of any size add up to the complete list', async () => {
      const ids = all.map((l) => l.Id);
      const pages: unknown[] = [];
      for (let offset = 0; offset < ids.length + 7; offset += 7)
        pages.push(...(await call(`${LOANS}?limit=7&offset=${offset}`)).json<WireRecord[]>().map((l) => l.Id));
      assert.deepEqual(pages, ids);
      assert.deepEqual(
        (await call(`${LOANS}`)).json<WireRecord[]>().map((l) => l.Id),
        ids.slice(0, 20),
      );
      // the same under /openwowi, the vendor's prefix
      const id = String(first(all).Id);
      assert.deepEqual((await call(`/openwowi/v1.2/Loans/Loan?loanId=${id}&showNullValues=true${INCLUDES}`)).json(), [
        first(all),
      ]);
      assert.deepEqual(
        (await call(`/openwowi/v1.2/Loans/Loan/${id}/RepaymentPlan`)).json(),
        (await call(`${LOANS}/${id}/RepaymentPlan`)).json(),
      );
    });

    it('a one-ledger key sees only its ledger’s loans, plans and lenders', async () => {
      const key1 = await t.apiKey([1]);
      const mine = await everything(LOANS, `&apiKey=${key1}`);
      assert.deepEqual(
        mine.map((l) => l.Id),
        all.filter((l) => l.CompanyCode.Id === 1).map((l) => l.Id),
      );
      const other = all.find((l) => l.CompanyCode.Id !== 1 && (l.RepaymentPlan as WireRecord[]).length > 0);
      assert.ok(other);
      const invisible = await call(`${LOANS}/${String(other.Id)}/RepaymentPlan?apiKey=${key1}`);
      assert.equal(invisible.statusCode, 404, "a loan outside the key's ledgers is as if it did not exist");
      assert.deepEqual(invisible.json(), { loanId: [`No record with Id ${String(other.Id)}.`] });
      assert.deepEqual(await everything(LOANS, `&loanId=${String(other.Id)}&apiKey=${key1}`), []);
      assert.deepEqual(await everything(LOANS, `&companyCodeId=${String(other.CompanyCode.Id)}&apiKey=${key1}`), []);
      const persons = new Set(
        (await everything('/service/v1.2/PersonsRead/Persons', `&apiKey=${key1}`)).map((p) => p.Id as number),
      );
      for (const l of mine) assert.ok(persons.has(l.Lender.Id) && persons.has(l.Borrower.Id));
    });

    it('403 names the missing permission; 400 names the invalid parameter', async () => {
      const objectsOnly = await t.login({ permissions: [PERMISSIONS.objectDataRead] });
      for (const url of [LOANS, `${LOANS}/${String(first(all).Id)}/RepaymentPlan`]) {
        const res = await call(url, objectsOnly);
        assert.equal(res.statusCode, 403, url);
        assert.match(res.body, /Darlehen lesen/);
      }
      const loansOnly = await t.login({ permissions: [PERMISSIONS.loansRead] });
      const withoutPersons = await call(`${LOANS}?limit=100`, loansOnly);
      assert.equal(withoutPersons.statusCode, 200);
      // person names are person data: only with Personen lesen (decisions §7); the keys stay, as clients need them
      type Party = { Id: number; Name: string | null } | null;
      const parties = (res: { json<T>(): T }) =>
        res.json<Array<{ Borrower: Party; Lender: Party }>>().flatMap((l) => [l.Borrower, l.Lender]);
      assert.ok(
        parties(withoutPersons).every((p) => p === null || (p.Name === null && p.Id > 0)),
        JSON.stringify(parties(withoutPersons).slice(0, 3)),
      );
      const both = await t.login({ permissions: [PERMISSIONS.loansRead, PERMISSIONS.personsRead] });
      const withPersons = parties(await call(`${LOANS}?limit=100`, both));
      assert.ok(
        withPersons.some((p) => p !== null && typeof p.Name === 'string' && p.Name.length > 0),
        JSON.stringify(withPersons.slice(0, 3)),
      );
      for (const [url, key] of [
        [`${LOANS}?loanId=abc`, 'loanId'],
        [`${LOANS}?loanTypeId=1.5`, 'loanTypeId'],
        [`${LOANS}?companyCodeId=x`, 'companyCodeId'],
        [`${LOANS}?lenderId=99999999999`, 'lenderId'],
        [`${LOANS}?borrowerId=`, 'borrowerId'],
        [`${LOANS}?includeCondition=yes`, 'includeCondition'],
        [`${LOANS}?limit=101`, 'limit'],
        [`${LOANS}/abc/RepaymentPlan`, 'loanId'],
        [`${LOANS}/1/RepaymentPlan?offset=-1`, 'offset'],
      ]) {
        const res = await call(url as string);
        assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
        assert.deepEqual(Object.keys(res.json()), [key], url);
      }
    });
  });
}
