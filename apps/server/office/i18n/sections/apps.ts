/** The apps section's words: each app and what it adds. */
import { section } from './section.ts';

export const apps = section({
  en: {
    appsLead:
      'Apps add what a kind of business needs. Installing or removing one applies to this mode; a removed app’s data is kept for when it comes back.',
    noApps: 'No apps.',
    appInstalled: 'Installed',
    appNotInstalled: 'Not installed',
    appChanged: 'Last changed {time}',
    appInstall: 'Install',
    appRemove: 'Remove',
    appRemoveTitle: 'Remove {name}?',
    appRemoveLead:
      'Its pages and its API stop answering in this mode, and tills refuse its work. Its data is kept: installing it again brings everything back.',
    appRetail: 'Retail',
    appRetailAdds:
      'Products, stores, stock, orders, tills and shifts with their Z reports, and the sales at the tills on Home.',
    appHospitality: 'Hospitality',
    appHospitalityAdds: 'Rooms, bookings and channels.',
    appEvents: 'Events',
    appEventsAdds: 'Ticketed events, ticket tiers, promotions and check-in at the door.',
    appMemberships: 'Memberships',
    appMembershipsAdds: 'Membership plans.',
    appEmployees: 'Employees',
    appEmployeesAdds:
      'Staff with their roles and the PINs they sign in to the tills with (Tills and staff → Staff).',
    appPrinters: 'Printers',
    appPrintersAdds: 'Receipt printers on the tills and print jobs (Tills and staff → Printers).',
    appStatutory: 'Statutory',
    appStatutoryAdds: 'Statutory settings and work permits.',
  },
  sw: {
    appsLead:
      'Programu huongeza kile aina ya biashara inachohitaji. Kuweka au kuondoa programu kunahusu hali hii; data ya programu iliyoondolewa inahifadhiwa hadi itakaporudi.',
    noApps: 'Hakuna programu.',
    appInstalled: 'Imewekwa',
    appNotInstalled: 'Haijawekwa',
    appChanged: 'Ilibadilishwa {time}',
    appInstall: 'Weka',
    appRemove: 'Ondoa',
    appRemoveTitle: 'Ondoa {name}?',
    appRemoveLead:
      'Kurasa zake na API yake zinaacha kujibu katika hali hii, na kaunta zinakataa kazi zake. Data yake inahifadhiwa: ukiiweka tena kila kitu kinarudi.',
    appRetail: 'Duka',
    appRetailAdds:
      'Bidhaa, maduka, stoku, oda, kaunta na zamu pamoja na ripoti zao za Z, na mauzo ya kaunta kwenye Mwanzo.',
    appHospitality: 'Hoteli na malazi',
    appHospitalityAdds: 'Vyumba, nafasi zilizohifadhiwa na njia za mauzo.',
    appEvents: 'Matukio',
    appEventsAdds: 'Matukio yenye tiketi, madaraja ya tiketi, ofa na ukaguzi mlangoni.',
    appMemberships: 'Uanachama',
    appMembershipsAdds: 'Mipango ya uanachama.',
    appEmployees: 'Wafanyakazi',
    appEmployeesAdds:
      'Wafanyakazi, nafasi zao na PIN wanazotumia kuingia kwenye kaunta (Kaunta na wafanyakazi → Wafanyakazi).',
    appPrinters: 'Printa',
    appPrintersAdds: 'Printa za risiti kwenye kaunta na kazi za kuchapisha (Kaunta na wafanyakazi → Printa).',
    appStatutory: 'Mambo ya kisheria',
    appStatutoryAdds: 'Mipangilio ya kisheria na vibali vya kazi.',
  },
});
