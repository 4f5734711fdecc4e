# cmake/Tables.cmake — the `readme.tables` test: every measured table and number in a README is
# generated from the committed CSVs.
#
# plots/plot_timings.py reads each chapter's declarations (chapters/NN_x/report.py; plots/report.py
# for the top README; the format is documented at the top of the script) and the CSVs under
# plots/data/<gpu>/, and regenerates every README block between <!-- wb:table NAME --> and
# <!-- /wb:table --> and every value between <!-- wb:value NAME --> and <!-- /wb:value -->.
#   readme.tables [cpu]     --check: fails with a unified diff when a README differs from what the
#                           CSVs give (or names a table or value that no report.py declares); needs
#                           only python3, never skips
#   readme.tables.selftest [cpu]  tests/tables_test.py: on a small workbook in a temporary folder,
#                           --check passes on a current README and fails on a value or row edited by
#                           hand, on a new measurement not yet written, on a marker naming nothing and
#                           on a missing row; appended CSV columns and rows leave it passing
#   target update_readme_tables   --update --no-figures: rewrites every README block and value
# Redrawing the figures as well (matplotlib): `python3 plots/plot_timings.py --update`.

add_test(NAME readme.tables
         COMMAND ${Python3_EXECUTABLE} ${WORKBOOK_ROOT}/plots/plot_timings.py --check
                 --root ${WORKBOOK_ROOT} --data-dir ${WORKBOOK_ROOT}/plots/data)
set_tests_properties(readme.tables PROPERTIES LABELS cpu TIMEOUT 120)
add_test(NAME readme.tables.selftest
         COMMAND ${Python3_EXECUTABLE} ${WORKBOOK_ROOT}/tests/tables_test.py ${WORKBOOK_ROOT}/plots/plot_timings.py)
set_tests_properties(readme.tables.selftest PROPERTIES LABELS cpu TIMEOUT 120)

add_custom_target(update_readme_tables
  COMMAND ${Python3_EXECUTABLE} ${WORKBOOK_ROOT}/plots/plot_timings.py --update --no-figures
          --root ${WORKBOOK_ROOT} --data-dir ${WORKBOOK_ROOT}/plots/data
  USES_TERMINAL VERBATIM)
