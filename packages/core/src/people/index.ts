export * from './statutory.ts';
export * from './payslip.ts';
export * from './employee.ts';
