<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>gpusizer::ui::ImportReportDialog</name>
    <message numerus="yes">
        <source>%n key(s) used</source>
        <translation>
            <numerusform>%n key used</numerusform>
            <numerusform>%n keys used</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n default(s) taken</source>
        <translation>
            <numerusform>%n default taken</numerusform>
            <numerusform>%n defaults taken</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n key(s) ignored</source>
        <translation>
            <numerusform>%n key ignored</numerusform>
            <numerusform>%n keys ignored</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n note(s)</source>
        <translation>
            <numerusform>%n note</numerusform>
            <numerusform>%n notes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gpusizer::ui::MainWindow</name>
    <message numerus="yes">
        <source> · Total across %n GPU(s): %1</source>
        <translation>
            <numerusform> · Total across %n GPU: %1</numerusform>
            <numerusform> · Total across %n GPUs: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>⚠ %n catalog problem(s)</source>
        <translation>
            <numerusform>⚠ %n catalog problem</numerusform>
            <numerusform>⚠ %n catalog problems</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Report written to %1 (%n page(s))</source>
        <translation>
            <numerusform>Report written to %1 (%n page)</numerusform>
            <numerusform>Report written to %1 (%n pages)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>From %n measured run(s) on the %1 (%2):

• overhead correction %3%4 per GPU
%5
Apply this calibration to your estimates for this GPU and framework? It is kept in your settings and can be reset in Help › Calibrations.</source>
        <translation>
            <numerusform>From %n measured run on the %1 (%2):

• overhead correction %3%4 per GPU
%5
Apply this calibration to your estimates for this GPU and framework? It is kept in your settings and can be reset in Help › Calibrations.</numerusform>
            <numerusform>From %n measured runs on the %1 (%2):

• overhead correction %3%4 per GPU
%5
Apply this calibration to your estimates for this GPU and framework? It is kept in your settings and can be reset in Help › Calibrations.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>• %1 / %2: overhead %3, HFU %4 (%n run(s), %5)
</source>
        <translation>
            <numerusform>• %1 / %2: overhead %3, HFU %4 (%n run, %5)
</numerusform>
            <numerusform>• %1 / %2: overhead %3, HFU %4 (%n runs, %5)
</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gpusizer::ui::ScenarioController</name>
    <message numerus="yes">
        <source>calibrated from %n measured run(s): overhead %1%2</source>
        <translation>
            <numerusform>calibrated from %n measured run: overhead %1%2</numerusform>
            <numerusform>calibrated from %n measured runs: overhead %1%2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>calibration from %n measured run(s) kept in this scenario</source>
        <translation>
            <numerusform>calibration from %n measured run kept in this scenario</numerusform>
            <numerusform>calibration from %n measured runs kept in this scenario</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gpusizer::ui::SeqLenView</name>
    <message numerus="yes">
        <source>Longest sequence per GPU at micro-batch %1 with %n GPU(s): %2.</source>
        <translation>
            <numerusform>Longest sequence per GPU at micro-batch %1 with %n GPU: %2.</numerusform>
            <numerusform>Longest sequence per GPU at micro-batch %1 with %n GPUs: %2.</numerusform>
        </translation>
    </message>
</context>
</TS>
